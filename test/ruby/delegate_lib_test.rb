# require "delegate" as CRuby's: SimpleDelegator passes what it does not answer itself to its
# target (arguments, keywords and blocks too), equality and inspect are the target's, the
# errors name the delegator, and DelegateClass(superclass) defines superclass's methods.
require "delegate"

class DelegateLibTest < MnTest::Case
  class Decorated < SimpleDelegator
    def full = "#{first} #{last}"
    def own_block? = block_given?
    def fail_here = raise(ArgumentError, "boom")
    def format_it(n) = format("%03d", n)
  end

  Person = Struct.new(:first, :last)

  class Stack < DelegateClass(Array)
    def initialize = super([])
    def peek = last
  end

  module Nested
    class Lookup < SimpleDelegator
      def make = Array.new(2, 0)   # a top-level constant, from a BasicObject descendant
    end
  end

  def test_methods_pass_to_the_target_with_arguments_keywords_and_blocks
    target = Object.new
    def target.call(a, k: 1, &b) = [a, k, b&.call]
    d = SimpleDelegator.new(target)
    assert_equal [1, 1, nil], d.call(1)
    assert_equal [1, 2, 3], d.call(1, k: 2) { 3 }
    assert_equal [2, 3], SimpleDelegator.new([1, 2, 3]).select { |x| x > 1 }
  end

  def test_subclass_methods_see_the_target
    d = Decorated.new(Person.new("Ada", "Lovelace"))
    assert_equal "Ada Lovelace", d.full
    assert_equal true, d.own_block? { }
    assert_equal false, d.own_block?
    assert_equal "007", d.format_it(7)
    e = assert_raise(ArgumentError) { d.fail_here }
    assert_equal "boom", e.message
  end

  def test_getobj_and_setobj
    d = SimpleDelegator.new("a")
    assert_equal "a", d.__getobj__
    d.__setobj__([1])
    assert_equal 1, d.size
    e = assert_raise(ArgumentError) { d.__setobj__(d) }
    assert_equal "cannot delegate to self", e.message
  end

  def test_not_delegated_yet
    d = SimpleDelegator.allocate
    assert_equal 5, d.__getobj__ { 5 }
    assert_equal "not delegated", assert_raise(ArgumentError) { d.__getobj__ }.message
    assert_raise(NoMethodError) { d.size }
  end

  def test_abstract_delegator_needs_getobj_and_setobj
    e = assert_raise(NotImplementedError) { Delegator.new(1) }
    assert_include ["need to define `__setobj__'", "need to define '__setobj__'"], e.message
  end

  def test_missing_method_names_the_delegator
    e = assert_raise(NoMethodError) { SimpleDelegator.new(1).frobnicate }
    assert_equal :frobnicate, e.name
    if RUBY_VERSION >= "3.4"
      assert_equal "undefined method 'frobnicate' for an instance of SimpleDelegator", e.message
    else
      assert_include e.message, "SimpleDelegator"
    end
  end

  def test_equality_and_hash_are_the_targets
    a = SimpleDelegator.new("a")
    b = SimpleDelegator.new("a")
    assert a == "a"
    assert a == b
    assert a == a
    refute a != b
    assert a != "b"
    assert a.eql?("a")
    assert a.eql?(b)
    assert_equal "a".hash, a.hash
    assert_equal 1, (SimpleDelegator.new(3) <=> 2)
    assert SimpleDelegator.new(3) === 3
    assert_equal false, !SimpleDelegator.new(1)
    assert_equal true, !SimpleDelegator.new(nil)
  end

  def test_the_delegator_is_not_its_target
    d = SimpleDelegator.new([1])
    assert_equal SimpleDelegator, d.class
    refute d.is_a?(Array)
    assert d.is_a?(Delegator)
    assert d.instance_of?(SimpleDelegator)
    refute d.equal?(d.__getobj__)
  end

  def test_inspect_and_to_s_are_the_targets
    d = SimpleDelegator.new([1, 2])
    assert_equal "[1, 2]", d.inspect
    assert_equal "[1, 2]", d.to_s
    assert_equal "<[1, 2]>", "<#{d}>"
  end

  def test_respond_to_and_methods_include_the_targets
    d = SimpleDelegator.new([1])
    assert d.respond_to?(:push)
    refute d.respond_to?(:nope)
    refute d.respond_to?(:puts)          # private in Kernel: not passed on
    assert_include d.methods, :push
    assert_include d.methods, :__getobj__
    assert_include d.public_methods, :push
    assert_equal [1, 5], d.method(:push).call(5)
  end

  def test_freeze_freezes_the_target
    d = SimpleDelegator.new([1])
    assert_same d, d.freeze
    assert d.frozen?
    assert d.__getobj__.frozen?
    assert_raise(FrozenError) { d.__setobj__([2]) }
  end

  def test_dup_and_clone_copy_the_target
    d = SimpleDelegator.new([1])
    [d.dup, d.clone].each do |c|
      assert_equal [1], c.__getobj__
      refute c.__getobj__.equal?(d.__getobj__)
    end
  end

  def test_marshal_round_trip_keeps_target_and_instance_variables
    d = SimpleDelegator.new([1, 2])
    d.instance_variable_set(:@note, "n")
    assert_equal [:__v2__, [:@note], ["n"], [1, 2]], d.marshal_dump
    back = Marshal.load(Marshal.dump(d))
    assert_equal [1, 2], back.__getobj__
    assert_equal "n", back.instance_variable_get(:@note)
  end

  def test_delegate_class_defines_the_superclass_methods
    s = Stack.new
    s.push(1)
    s << 2
    assert_equal 2, s.peek
    assert_equal [2, 4], s.map { |x| x * 2 }
    assert_equal [1, 2], s.__getobj__
    assert_equal Delegator, Stack.superclass.superclass
    assert_include Stack.instance_methods, :push
    assert Stack.public_instance_method(:push)
    assert Stack.instance_method(:map)
    refute s.is_a?(Array)
  end

  def test_delegate_class_block_and_setobj_to_self
    k = DelegateClass(Hash) { def twice(key) = self[key] * 2 }
    h = k.new({ a: 2 })
    assert_equal 4, h.twice(:a)
    assert_equal [:a], h.keys
    assert_equal "cannot delegate to self", assert_raise(ArgumentError) { h.__setobj__(h) }.message
  end

  def test_top_level_constants_from_a_nested_delegator
    assert_equal [0, 0], Nested::Lookup.new(1).make
  end

  def test_loads_and_delegates_in_another_ractor
    mnrb_only
    r = Ractor.new do
      require "delegate"
      d = SimpleDelegator.new([3, 1, 2])
      [d.sort, d.inspect, DelegateClass(String).new("ab").upcase]
    end
    assert_equal [[1, 2, 3], "[3, 1, 2]", "AB"], r.take
  end
end
