# Struct's keyword construction as CRuby 3.2+ has it (mruby-struct knows positional arguments only):
#
#   S = Struct.new(:a, :b, keyword_init: true)   S.new(a: 1, b: 2); S.new(1, 2) is an ArgumentError
#   P = Struct.new(:a, :b)                        P.new(1, 2) or P.new(a: 1, b: 2) (keywords alone)
#   Q = Struct.new(:a, :b, keyword_init: false)   Q.new(a: 1, b: 2) sets a to {a: 1, b: 2}
#
# Unknown keywords raise ArgumentError "unknown keywords: c, d". S.keyword_init? answers true, false
# or nil (not given), and a keyword_init: true struct inspects as "S(keyword_init: true)".
class Struct
  class << self
    alias __mnrb_define_struct new

    def new(*args, keyword_init: nil, &block)
      klass = __mnrb_define_struct(*args, &block)
      klass.define_singleton_method(:keyword_init?) { keyword_init }
      # mruby-struct's new passes keywords on as a positional Hash: keep them keywords
      construct = lambda do |k, args, kw, blk|
        obj = k.allocate
        obj.__send__(:initialize, *args, **kw, &blk)
        obj
      end
      klass.define_singleton_method(:new) { |*args, **kw, &blk| construct.call(self, args, kw, blk) }
      klass.define_singleton_method(:[]) { |*args, **kw, &blk| construct.call(self, args, kw, blk) }
      if keyword_init
        klass.define_singleton_method(:inspect) { "#{name || to_s}(keyword_init: true)" }
      end
      klass
    end
  end

  alias __mnrb_positional_initialize initialize

  def initialize(*args, **kw)
    mode = self.class.respond_to?(:keyword_init?) ? self.class.keyword_init? : nil
    if mode && !args.empty?
      raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0)"
    end
    if kw.empty? || mode == false || (mode.nil? && !args.empty?)
      args << kw unless kw.empty?
      return __mnrb_positional_initialize(*args)
    end
    names = members
    unknown = kw.keys.reject { |k| names.include?(k.to_s.to_sym) }
    raise ArgumentError, "unknown keywords: #{unknown.join(", ")}" unless unknown.empty?
    __mnrb_positional_initialize
    kw.each { |k, v| self[k.to_s.to_sym] = v }
  end
end
