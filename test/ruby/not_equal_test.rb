# BasicObject#!= and == of immediates: != is the negation of what == answers, asked of the receiver
# (CRuby's rb_obj_not_equal), for numbers, NaN, immediates of every kind, objects with their own ==,
# and a redefined == of a class. Expected values are CRuby 3.1's and 3.3's; this file passes there.

class NotEqualTest < MnTest::Case
  def test_integers
    assert_equal false, 1 != 1
    assert_equal true, 1 != 2
    assert_equal true, -5 != 5
    assert_equal false, (2**70) != (2**70)
    assert_equal true, (2**70) != 2**70 + 1
    assert_equal false, 1 != 1.0
    assert_equal true, 1 != 1.5
    assert_equal false, 1 != Rational(1, 1)
    assert_equal true, 1 != Rational(1, 2)
  end

  def test_floats_and_nan
    nan = Float::NAN
    assert_equal true, nan != nan
    assert_equal false, nan == nan
    assert_equal false, 0.5 != 0.5
    assert_equal false, 0.0 != -0.0
    assert_equal true, 1e300 != 1e301
  end

  def test_immediates_of_different_kinds
    vals = [1, -1, 0, :stop, :a, nil, true, false]
    vals.each do |a|
      vals.each do |b|
        assert_equal !a.equal?(b), a != b, "#{a.inspect} != #{b.inspect}"
        assert_equal a.equal?(b), a == b, "#{a.inspect} == #{b.inspect}"
      end
    end
  end

  def test_immediate_against_objects
    assert_equal true, :stop != "stop"
    assert_equal true, "stop" != :stop
    assert_equal true, nil != []
    assert_equal true, 1 != "1"
    assert_equal false, "a" != "a"
    assert_equal true, [1] != [2]
    assert_equal false, [1, :a] != [1, :a]
  end

  class Always
    def ==(other) = true
  end

  class Never
    def ==(other) = false
  end

  def test_the_receivers_own_equality_is_asked
    assert_equal false, Always.new != 1
    assert_equal false, Always.new != :x
    n = Never.new
    assert_equal true, n != n
    assert_equal true, n == n ? false : true
  end

  class Counting
    attr_reader :asked
    def initialize = @asked = 0
    def ==(other)
      @asked += 1
      other.is_a?(Counting)
    end
  end

  def test_equality_is_asked_once_per_comparison
    c = Counting.new
    assert_equal false, c != Counting.new
    assert_equal true, c != 3
    assert_equal 2, c.asked
  end

  class Ghost < BasicObject
    undef_method :==
    def method_missing(name, *args) = name == :== ? :yes : super
  end

  def test_method_missing_answers_equality
    assert_equal false, Ghost.new != 1
  end

  def test_send_and_arity
    assert_equal true, 1.send(:!=, 2)
    assert_equal false, :a.public_send(:!=, :a)
    assert_equal true, 1.method(:!=).call(:b)
    e = assert_raise(ArgumentError) { 1.__send__(:!=) }
    assert_equal "wrong number of arguments (given 0, expected 1)", e.message
  end

  class Redefined
    def !=(other) = :own
  end

  def test_a_class_defines_its_own_not_equal
    assert_equal :own, Redefined.new != 1
  end

  def test_in_a_loop_as_the_ractor_ring
    v = 1
    n = 0
    n += 1 while (v += 1) != 1000
    assert_equal 998, n
    got = []
    [1, 2, :stop, 3].each { |x| break if x == :stop; got << x if x != :skip }
    assert_equal [1, 2], got
  end
end
