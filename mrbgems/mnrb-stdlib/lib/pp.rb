# PrettyPrint, PP and Kernel#pp as in CRuby 3.1's prettyprint.rb and pp.rb.
#
# PrettyPrint is Oppen's algorithm as CRuby implements it: text is buffered until a line
# overflows, then the outermost group still open is broken (all its breakables become newlines).
# Keeping the same algorithm keeps the output identical, including for user-defined
# pretty_print(q) methods. Differences: the width is always 79 (CRuby asks the terminal), and
# plain objects print as their #inspect (CRuby lays out their instance variables).
class PrettyPrint
  def self.format(output = '', maxwidth = 79, newline = "\n", genspace = nil)
    q = new(output, maxwidth, newline, &genspace)
    yield q
    q.flush
    output
  end

  def initialize(output = '', maxwidth = 79, newline = "\n", &genspace)
    @output = output
    @maxwidth = maxwidth
    @newline = newline
    @genspace = genspace || lambda { |n| ' ' * n }
    @output_width = 0
    @buffer_width = 0
    @buffer = []
    root = Group.new(0)
    @group_stack = [root]
    @group_queue = GroupQueue.new(root)
    @indent = 0
  end

  attr_reader :output, :maxwidth, :newline, :genspace, :indent, :group_queue

  def current_group
    @group_stack.last
  end

  def text(obj, width = obj.length)
    if @buffer.empty?
      @output << obj
      @output_width += width
    else
      text = @buffer.last
      unless Text === text
        text = Text.new
        @buffer << text
      end
      text.add(obj, width)
      @buffer_width += width
      break_outmost_groups
    end
  end

  def breakable(sep = ' ', width = sep.length)
    group = @group_stack.last
    if group.break?
      flush
      @output << @newline
      @output << @genspace.call(@indent)
      @output_width = @indent
      @buffer_width = 0
    else
      @buffer << Breakable.new(sep, width, self)
      @buffer_width += width
      break_outmost_groups
    end
  end

  def fill_breakable(sep = ' ', width = sep.length)
    group { breakable sep, width }
  end

  def group(indent = 0, open_obj = '', close_obj = '', open_width = open_obj.length,
            close_width = close_obj.length)
    text open_obj, open_width
    group_sub { nest(indent) { yield } }
    text close_obj, close_width
  end

  def group_sub
    group = Group.new(@group_stack.last.depth + 1)
    @group_stack.push group
    @group_queue.enq group
    begin
      yield
    ensure
      @group_stack.pop
      @group_queue.delete group if group.breakables.empty?
    end
  end

  def nest(indent)
    @indent += indent
    begin
      yield
    ensure
      @indent -= indent
    end
  end

  def flush
    @buffer.each { |data| @output_width = data.output(@output, @output_width) }
    @buffer.clear
    @buffer_width = 0
  end

  # Writes out buffered text while the line is too long, breaking the outermost open groups.
  def break_outmost_groups
    while @maxwidth < @output_width + @buffer_width
      return unless group = @group_queue.deq
      until group.breakables.empty?
        data = @buffer.shift
        @output_width = data.output(@output, @output_width)
        @buffer_width -= data.width
      end
      while !@buffer.empty? && Text === @buffer.first
        text = @buffer.shift
        @output_width = text.output(@output, @output_width)
        @buffer_width -= text.width
      end
    end
  end

  class Text
    attr_reader :width

    def initialize
      @objs = []
      @width = 0
    end

    def output(out, output_width)
      @objs.each { |obj| out << obj }
      output_width + @width
    end

    def add(obj, width)
      @objs << obj
      @width += width
    end
  end

  class Breakable
    attr_reader :obj, :width, :indent

    def initialize(sep, width, q)
      @obj = sep
      @width = width
      @pp = q
      @indent = q.indent
      @group = q.current_group
      @group.breakables.push self
    end

    def output(out, output_width)
      @group.breakables.shift
      if @group.break?
        out << @pp.newline
        out << @pp.genspace.call(@indent)
        @indent
      else
        @pp.group_queue.delete @group if @group.breakables.empty?
        out << @obj
        output_width + @width
      end
    end
  end

  class Group
    attr_reader :depth, :breakables

    def initialize(depth)
      @depth = depth
      @breakables = []
      @break = false
    end

    def break
      @break = true
    end

    def break?
      @break
    end
  end

  # Open groups by depth; deq hands out the outermost (then most recent) group that can break.
  class GroupQueue
    def initialize(*groups)
      @queue = []
      groups.each { |g| enq g }
    end

    def enq(group)
      depth = group.depth
      @queue << [] until depth < @queue.length
      @queue[depth] << group
    end

    def deq
      @queue.each do |gs|
        (gs.length - 1).downto(0) do |i|
          unless gs[i].breakables.empty?
            group = gs.delete_at(i)
            group.break
            return group
          end
        end
        gs.each { |group| group.break }
        gs.clear
      end
      nil
    end

    def delete(group)
      @queue[group.depth].delete(group)
    end
  end
end

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
