# Integer#== and Float#== with an object that is not a number ask that object, as CRuby's
# num_equal (`5 == obj` is `obj == 5`, true or false by its truthiness), and Comparable#== is true
# for the object itself without calling <=> (CRuby's cmp_equal). Expected values: CRuby 3.1 and 3.3.8.

class NumericEqualOtherTest < MnTest::Case
  class AlwaysEqual
    attr_reader :asked
    def ==(other)
      (@asked ||= []) << other
      :truthy
    end
  end

  def test_integer_asks_the_other_object
    o = AlwaysEqual.new
    assert_equal true, 5 == o
    assert_equal [5], o.asked
  end

  def test_bignum_and_float_ask_the_other_object
    o = AlwaysEqual.new
    assert_equal true, 2**70 == o
    assert_equal true, 1.5 == o
    assert_equal [2**70, 1.5], o.asked
  end

  def test_unrelated_objects_stay_unequal
    assert_equal false, 5 == "5"
    assert_equal false, 5 == nil
    assert_equal false, 1.0 == :a
    assert_equal false, 5 == Object.new
  end

  def test_a_falsy_answer_is_false
    o = Object.new
    def o.==(other) = nil
    assert_equal false, 5 == o
    assert_equal false, 5.0 == o
  end

  def test_array_include_asks_through_integer_equal
    o = AlwaysEqual.new
    assert_equal true, [3].include?(o)
  end

  class Version
    include Comparable
    attr_reader :calls
    def initialize = @calls = 0
    def <=>(other)
      @calls += 1
      raise "compared"
    end
  end

  def test_comparable_equal_self_skips_cmp
    v = Version.new
    assert_equal true, v == v
    assert_equal 0, v.calls
    assert_raise(RuntimeError) { v == Version.new }
  end
end
