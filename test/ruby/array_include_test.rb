# Array#include? and #member? (mnrb-compat's array_include.c): CRuby's rb_ary_includes, `elem == obj`
# for each element in order with identity counting first, the element's own == called (user-defined
# ones too), Integer/Float mixing, an Array changed by ==. Expected values are CRuby 3.1's (this file
# passes there too).

class ArrayIncludeTest < MnTest::Case
  class Eq
    attr_reader :asked
    def initialize(answer) = (@answer = answer; @asked = [])
    def ==(other)
      @asked << other
      @answer
    end
  end

  def test_integers_symbols_and_nil
    assert [0, 1].include?(1)
    refute [0, 1].include?(2)
    assert [:a, :b].include?(:b)
    refute [:a, :b].include?(:c)
    assert ["a", :b, nil].include?(nil)
    refute [1, :a, "x"].include?(nil)
    assert [false].include?(false)
    refute [nil].include?(false)
    refute [].include?(nil)
    assert [-(2**62), 2**62 - 1].include?(2**62 - 1)
  end

  def test_integer_and_float_compare_by_value
    assert [1].include?(1.0)
    assert [1.0].include?(1)
    refute [1].include?(1.5)
    assert [2**70].include?(2**70)
    assert [2.0**70].include?(2**70)
    refute [:a, 1].include?(1.1)
  end

  def test_nan
    nan = Float::NAN
    assert [nan].include?(nan), "the same NaN object is included (identity first)"
    refute [1.0, 2].include?(nan)
    refute [nan].include?(1.0)
  end

  def test_strings_and_arrays_by_value
    assert ["a", "b"].include?("b")
    refute ["a"].include?(:a)
    assert [[1, [2]], 3].include?([1, [2]])
    refute [[1, 2]].include?([2, 1])
    assert [{a: 1}].include?({a: 1})
  end

  def test_user_defined_equality_of_the_element_is_called
    yes = Eq.new(true)
    assert [1, yes].include?(:anything)
    assert_equal [:anything], yes.asked
    no = Eq.new(false)
    refute [no, no].include?(:q)
    assert_equal [:q, :q], no.asked
  end

  def test_truthy_answers_count
    assert [Eq.new(1)].include?(:x)
    refute [Eq.new(nil)].include?(:x)
  end

  def test_identity_needs_no_equality_call
    never = Eq.new(false)
    assert [never].include?(never)
    assert_equal [], never.asked
  end

  def test_stops_at_the_first_match
    later = Eq.new(true)
    assert [3, 2, later].include?(2)
    assert_equal [], later.asked
  end

  def test_the_argument_is_the_operand_not_the_receiver
    arg = Eq.new(true)
    refute [Object.new].include?(arg)
    assert_equal [], arg.asked
  end

  def test_equality_that_shrinks_the_array
    a = []
    shrink = Object.new
    shrink.define_singleton_method(:==) { |_| a.clear; false }
    a.push(shrink, 1, 2)
    refute a.include?(2)
    assert_equal [], a
  end

  def test_equality_that_grows_the_array
    a = []
    grow = Object.new
    grow.define_singleton_method(:==) { |_| a.push(:late) if a.size < 1000; false }
    a.push(grow, 1)
    assert a.include?(:late)
    assert_equal [grow, 1, :late], a
  end

  def test_equality_that_raises
    bad = Object.new
    def bad.==(_) = raise(IndexError, "no")
    e = assert_raise(IndexError) { [1, bad, 2].include?(2) }
    assert_equal "no", e.message
    assert [1, bad].include?(1)
  end

  def test_frozen_arrays_and_subclasses
    assert [1, 2].freeze.include?(2)
    sub = Class.new(Array)
    s = sub.new([4, 5])
    assert s.include?(5)
    refute s.include?(6)
  end

  def test_member_is_the_same
    assert [0, 1].member?(1)
    refute [0, 1].member?(2)
    assert [1].member?(1.0)
  end

  def test_argument_count
    e = assert_raise(ArgumentError) { [1].include? }
    assert e.message.start_with?("wrong number of arguments"), e.message
    assert_raise(ArgumentError) { [1].include?(1, 2) }
  end
end
