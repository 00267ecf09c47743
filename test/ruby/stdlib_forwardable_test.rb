# require "forwardable" as CRuby's: def_delegator(s), delegate/instance_delegate to an instance
# variable, a method or an expression, arguments, keywords and blocks passed on, and
# SingleForwardable on one object.
require "forwardable"

class StdlibForwardableTest < MnTest::Case
  class Queue2
    extend Forwardable
    include Enumerable
    attr_reader :items
    def_delegators :@items, :size, :<<, :first, :each, :__send__
    def_delegator :@items, :last, :final
    def_delegator "@items.first", :to_s, :first_s
    delegate [:push, :map] => :items, :empty? => :@items
    instance_delegate length: :items
    def_delegator :items, :fetch
    def initialize = @items = []
  end

  class Target
    def k(a, b: 2, &blk) = [a, b, blk&.call]
  end

  class Wrapper
    extend Forwardable
    def_delegator :@t, :k
    def initialize = @t = Target.new
  end

  def queue
    q = Queue2.new
    q << 1 << 2
    q.push(3)
    q
  end

  def test_def_delegators_and_renamed_delegator
    q = queue
    assert_equal 3, q.size
    assert_equal 1, q.first
    assert_equal 3, q.final
    assert_equal [1, 3], q.select(&:odd?)
  end

  def test_accessor_as_method_or_expression
    q = queue
    assert_equal "1", q.first_s
    assert_equal [2, 4, 6], q.map { |x| x * 2 }
    assert_equal false, q.empty?
    assert_equal 3, q.length
  end

  def test_arguments_keywords_and_blocks_pass_through
    assert_equal 10, queue.fetch(9) { |i| i + 1 }
    assert_equal [1, 2, nil], Wrapper.new.k(1)
    assert_equal [1, 3, 4], Wrapper.new.k(1, b: 3) { 4 }
    assert_raise(ArgumentError) { Wrapper.new.k }
  end

  def test_def_delegator_returns_the_name
    assert_equal :max, Queue2.def_delegator(:@items, :max)
    assert_equal :biggest, Queue2.def_delegator(:@items, :max, :biggest)
  end

  def test_single_forwardable
    o = Object.new
    o.instance_variable_set(:@h, { a: 1 })
    o.extend SingleForwardable
    o.def_delegators :@h, :[], :keys
    o.single_delegate values: :@h
    o.def_delegator :@h, :size, :count2
    assert_equal 1, o[:a]
    assert_equal [:a], o.keys
    assert_equal [1], o.values
    assert_equal 1, o.count2
  end
end
