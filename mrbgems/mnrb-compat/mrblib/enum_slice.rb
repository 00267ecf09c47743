# Enumerable's slicing and grouping methods (CRuby 3.1): chunk, chunk_while, slice_when,
# slice_before, slice_after, grep_v, each_entry, compact, chain; Array#sort_by! and #to_ary.
# The lazily iterated ones return an Enumerator built on a generator, as CRuby's do; each element
# is taken as each_entry sees it (several yielded values packed into one Array).
module Enumerable
  def each_entry(*args, &block)
    return to_enum(:each_entry, *args) unless block
    each(*args) { |*vs| block.call(vs.size <= 1 ? vs[0] : vs) }
    self
  end

  def grep_v(pattern, &block)
    out = []
    each_entry do |e|
      next if pattern === e
      out << (block ? block.call(e) : e)
    end
    out
  end

  def compact
    out = []
    each_entry { |e| out << e unless e.nil? }
    out
  end

  def chunk(&block)
    return to_enum(:chunk) unless block
    src = self
    Enumerator.new do |y|
      key = nil
      acc = nil
      src.each_entry do |e|
        k = block.call(e)
        if k.nil? || k == :_separator
          y.yield [key, acc] if acc
          key = acc = nil
        elsif k == :_alone
          y.yield [key, acc] if acc
          key = acc = nil
          y.yield [:_alone, [e]]
        elsif k.is_a?(Symbol) && k.to_s.start_with?("_")
          raise RuntimeError, "symbols beginning with an underscore are reserved"
        elsif acc && key == k
          acc << e
        else
          y.yield [key, acc] if acc
          key = k
          acc = [e]
        end
      end
      y.yield [key, acc] if acc
    end
  end

  def slice_when(&block)
    raise ArgumentError, "tried to create Proc object without a block" unless block
    __mnrb_slice_between { |a, b| block.call(a, b) }
  end

  def chunk_while(&block)
    raise ArgumentError, "tried to create Proc object without a block" unless block
    __mnrb_slice_between { |a, b| !block.call(a, b) }
  end

  def slice_before(*args, &block)
    __mnrb_slice_pattern_args(args, block)
    test = block || (pat = args[0]; proc { |e| pat === e })
    src = self
    Enumerator.new do |y|
      acc = nil
      src.each_entry do |e|
        if acc && test.call(e)
          y.yield acc
          acc = nil
        end
        (acc ||= []) << e
      end
      y.yield acc if acc
    end
  end

  def slice_after(*args, &block)
    raise ArgumentError, "both pattern and block are given" if block && !args.empty?
    __mnrb_slice_pattern_args(args, block)
    test = block || (pat = args[0]; proc { |e| pat === e })
    src = self
    Enumerator.new do |y|
      acc = nil
      src.each_entry do |e|
        (acc ||= []) << e
        if test.call(e)
          y.yield acc
          acc = nil
        end
      end
      y.yield acc if acc
    end
  end

  def chain(*enums)
    Enumerator::Chain.new(self, *enums)
  end

  # slice_when's engine: cut between a and b when the block says so.
  def __mnrb_slice_between(&cut)
    src = self
    Enumerator.new do |y|
      acc = nil
      prev = nil
      src.each_entry do |e|
        if acc.nil?
          acc = [e]
        elsif cut.call(prev, e)
          y.yield acc
          acc = [e]
        else
          acc << e
        end
        prev = e
      end
      y.yield acc if acc
    end
  end

  def __mnrb_slice_pattern_args(args, block)
    if block
      raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0)" unless args.empty?
    elsif args.size != 1
      raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 1)"
    end
  end
end

if Object.const_defined?(:Enumerator)
  class Enumerator
    # What Enumerable#chain and Enumerator#+ return: the receivers iterated one after another.
    class Chain < Enumerator
      def initialize(*enums)
        @__enums = enums.freeze
        chain = self
        super() { |y| chain.each { |*vs| y.yield(*vs) } }
      end

      def each(*args, &block)
        return self unless block
        @__enums.each { |e| e.each(*args, &block) }
        self
      end

      def size
        total = 0
        @__enums.each do |e|
          s = e.size
          return s if s.nil? || (s.is_a?(Float) && s.infinite?)
          total += s
        end
        total
      end

      def +(other)
        Chain.new(self, other)
      end

      def inspect
        "#<Enumerator::Chain: #{@__enums.inspect}>"
      end
      alias to_s inspect
    end

    def +(other)
      Chain.new(self, other)
    end
  end
end

class Array
  def sort_by!(&block)
    return to_enum(:sort_by!) { size } unless block
    replace(sort_by(&block))
  end

  def to_ary
    self
  end
end
