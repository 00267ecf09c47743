# PP and Kernel#pp as in CRuby 3.1's pp.rb, on PrettyPrint (prettyprint.rb, which `require "pp"` loads
# first). Plain objects print as their #inspect (CRuby lays out their instance variables).

class PP < PrettyPrint
  # Pretty-prints obj followed by a newline to out (standard output if nil).
  def self.pp(obj, out = nil, width = 79)
    q = new('', width)
    q.pp obj
    q.flush
    q.output << "\n"
    out ? out << q.output : print(q.output)
    out
  end

  def initialize(output = '', maxwidth = 79, newline = "\n", &genspace)
    super
    @visiting = {}
  end

  # Prints obj with its pretty_print, or pretty_print_cycle if obj is already being printed.
  def pp(obj)
    id = obj.__id__
    if @visiting[id]
      group { obj.pretty_print_cycle self }
      return
    end
    begin
      @visiting[id] = true
      group { obj.pretty_print self }
    ensure
      @visiting.delete id
    end
  end

  def comma_breakable
    text ','
    breakable
  end

  def seplist(list, sep = nil, iter_method = :each)
    sep ||= lambda { comma_breakable }
    first = true
    list.__send__(iter_method) do |*v|
      if first
        first = false
      else
        sep.call
      end
      yield(*v)
    end
  end

  def object_group(obj, &block)
    group(1, '#<' + obj.class.name, '>', &block)
  end

  # CRuby 3.4's form, as Hash#inspect prints it: `key: value` for a Symbol key (quoted when it
  # would not read back as a label: "my key":), `key => value` for any other.
  def pp_hash(obj)
    group(1, '{', '}') do
      seplist(obj) do |k, v|
        group do
          if k.is_a?(Symbol)
            text hash_label(k)
          else
            pp k
            text ' =>'
          end
          group(1) do
            breakable
            pp v
          end
        end
      end
    end
  end

  def hash_label(sym)
    s = sym.inspect
    plain = !s.start_with?(':"') && !'@$!'.include?(s[1]) && !'+-*/`%^&|]<=>~@'.include?(s[-1])
    "#{plain ? s[1, s.size] : sym.to_s.inspect}:"
  end
end

class Object
  def pretty_print(q)
    q.text inspect
  end

  def pretty_print_cycle(q)
    q.text inspect
  end

  def pretty_inspect
    ::PP.pp(self, "")
  end
end

class Array
  def pretty_print(q)
    q.group(1, '[', ']') do
      q.seplist(self) { |v| q.pp v }
    end
  end

  def pretty_print_cycle(q)
    q.text(empty? ? '[]' : '[...]')
  end
end

class Hash
  def pretty_print(q)
    q.pp_hash self
  end

  def pretty_print_cycle(q)
    q.text(empty? ? '{}' : '{...}')
  end
end

class Struct
  def pretty_print(q)
    q.group(1, "#<struct #{self.class.name}", '>') do
      q.seplist(members, lambda { q.text ',' }) do |member|
        q.breakable
        q.text member.to_s
        q.text '='
        q.group(1) do
          q.breakable ''
          q.pp self[member]
        end
      end
    end
  end

  def pretty_print_cycle(q)
    q.text "#<struct #{self.class.name}:...>"
  end
end

class Range
  def pretty_print(q)
    q.pp self.begin
    q.breakable ''
    q.text(exclude_end? ? '...' : '..')
    q.breakable ''
    q.pp self.end if self.end
  end
end

class String
  def pretty_print(q)
    lines = self.lines
    if lines.size > 1
      q.group(0, '', '') do
        q.seplist(lines, lambda { q.text ' +'; q.breakable }) { |v| q.pp v }
      end
    else
      q.text inspect
    end
  end
end

module Kernel
  # pp(*objs): pretty-prints each object; returns nil, the object, or the Array of them.
  def pp(*objs)
    objs.each { |obj| ::PP.pp(obj) }
    objs.size <= 1 ? objs.first : objs
  end
end
