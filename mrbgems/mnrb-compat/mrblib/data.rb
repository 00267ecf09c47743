# Data as CRuby 3.3 has it, over mruby-data (which keeps Data.define, the accessors, == and eql?).
#
# As in CRuby, `new` only turns positional arguments into keywords ("wrong number of arguments
# (given 3, expected 0..2)" past the members) and `initialize` takes keywords only, so a class can
# redefine initialize with defaults and call super; initialize checks them ("missing keyword: :y",
# "unknown keywords: :z, :w"; String keys count as Symbols) and freezes the instance. The values
# live in the instance itself (data.c's __fields / __fields_set). Also: `D[...]`, #with, #to_h
# with a block, #hash, #inspect for every shape ("#<data D x=1>", "#<data >", "#<data D:...>" when
# recursive), #deconstruct and #deconstruct_keys. Member names ending in "=" are refused.
class Data
  class << self
    alias __mruby_define define

    def define(*names, &block)
      names.each do |name|
        sym = name.to_sym
        raise ArgumentError, "invalid data member: #{sym}" if sym.to_s.end_with?("=")
      end
      klass = __mruby_define(*names)
      class << klass
        def new(*args, **kw)
          if !kw.empty?
            raise ArgumentError, "wrong number of arguments (given #{args.size + 1}, expected 0)" unless args.empty?
          else
            names = members
            if args.size > names.size
              expected = names.empty? ? "0" : "0..#{names.size}"
              raise ArgumentError, "wrong number of arguments (given #{args.size}, expected #{expected})"
            end
            args.each_with_index { |v, i| kw[names[i]] = v }
          end
          obj = allocate
          obj.__send__(:initialize, **kw)
          obj
        end
        alias [] new
      end
      klass.class_eval(&block) if block
      klass
    end

    # "missing keyword: :y", "unknown keywords: :z, :w"
    def __keyword_error(what, keys)
      ArgumentError.new("#{what} keyword#{'s' if keys.size > 1}: #{keys.map(&:inspect).join(', ')}")
    end
  end

  def initialize(**kw)
    names = members
    given = {}
    kw.each { |k, v| given[k.is_a?(String) ? k.to_sym : k] = v }
    raise Data.__keyword_error("missing", names.reject { |m| given.key?(m) }) if given.size < names.size
    unknown = given.keys - names
    raise Data.__keyword_error("unknown", unknown) unless unknown.empty?
    __fields_set(names.map { |m| given[m] })
  end

  # A copy with some members changed, through initialize as CRuby's (3.2+).
  def with(*args, **kw)
    raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0)" unless args.empty?
    return self if kw.empty?
    copy = self.class.allocate
    copy.__send__(:initialize, **to_h.merge(kw))
    copy
  end

  def to_h(&block)
    h = {}
    values = __fields
    members.each_with_index do |name, i|
      if block
        pair = block.call(name, values[i])
        raise TypeError, "wrong element type #{pair.class} (expected array)" unless pair.is_a?(Array)
        raise ArgumentError, "element has wrong array length (expected 2, was #{pair.size})" unless pair.size == 2
        h[pair[0]] = pair[1]
      else
        h[name] = values[i]
      end
    end
    h
  end

  def hash
    [self.class, __fields].hash
  end

  def inspect
    name = self.class.name
    s = "#<data "
    s << name if name
    return s << ":...>" if __inspect_recursive?
    values = __fields
    members.each_with_index do |member, i|
      s << (i > 0 ? ", " : name ? " " : "") << member.to_s << "=" << values[i].inspect
    end
    s << ">"
  end
  alias to_s inspect

  def deconstruct
    __fields
  end

  def deconstruct_keys(keys)
    return to_h if keys.nil?
    raise TypeError, "wrong argument type #{keys.class} (expected Array or nil)" unless keys.is_a?(Array)
    names = members
    return {} if keys.size > names.size
    values = __fields
    h = {}
    keys.each do |key|
      i = names.index(key.is_a?(String) ? key.to_sym : key)
      break unless i
      h[key] = values[i]
    end
    h
  end
end
