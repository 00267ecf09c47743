# Integer#-@, Integer#abs and Float#-@ (mruby patch 0051: C methods; they were Numeric's Ruby
# methods, `0 - self` and `self < 0 ? -self : self`). Each case checks a boundary the C code
# handles apart: the fixnum range's ends (the most negative fixnum has no fixnum negation), heap
# Integers beyond fixnums, bignums, signed zeros, and that other Numerics keep Numeric's methods.
# Expected values are CRuby 3.1's (this file passes there too).

class NumericUminusAbsTest < MnTest::Case
  def test_integer_uminus
    assert_equal(-5, -(5))
    x = 7
    assert_equal(-7, -x)
    x = -7
    assert_equal 7, -x
    x = 0
    assert_equal 0, -x
    assert_equal 0, x.send(:-@)
  end

  def test_integer_uminus_at_every_width
    [2**30, 2**31, 2**32, 2**61, 2**62, 2**63, 2**64, 2**100].each do |m|
      [m - 1, m, m + 1].each do |v|
        n = -v
        assert_equal 0, n + v, "-(#{v})"
        assert_equal v, -n, "-(-#{v})"
        assert_kind_of Integer, n
        assert_equal "-#{v}", n.to_s
      end
    end
  end

  def test_integer_abs
    assert_equal 5, 5.abs
    assert_equal 5, (-5).abs
    assert_equal 0, 0.abs
    assert_equal 3, (1 - 4).abs
    assert_equal 3, (1 - 4).magnitude
    [2**30, 2**61, 2**62, 2**63, 2**64, 2**100].each do |m|
      [m - 1, m, m + 1].each do |v|
        assert_equal v, v.abs, "#{v}.abs"
        assert_equal v, (-v).abs, "(-#{v}).abs"
        assert_equal v.to_s, (-v).abs.to_s
      end
    end
  end

  def test_abs_and_uminus_in_a_loop
    sum = 0
    (-50..50).each { |i| sum += (i - 3).abs + -i }
    assert_equal 2559, sum
    safe = [0, 2, 4].each_with_index.all? { |c, r| (3 - r).abs != (1 - c).abs }
    assert_equal true, safe
  end

  def test_float_uminus_signed_zero
    z = 0.0
    assert_equal "-0.0", (-z).to_s
    assert_equal "0.0", (-(-z)).to_s
    assert_equal(-1.0 / 0.0, 1.0 / -z)
    f = 2.5
    assert_equal(-2.5, -f)
    big = 1e300
    assert_equal(-1e300, -big)
    assert_equal(-Float::INFINITY, -Float::INFINITY)
    assert_equal true, (-Float::NAN).nan?
    tiny = 5e-324
    assert_equal(-5e-324, -tiny)
  end

  def test_float_abs_unchanged
    assert_equal 2.5, (-2.5).abs
    assert_equal "0.0", (-0.0).abs.to_s
  end

  class Meters < Numeric
    def initialize(v) = @v = v
    attr_reader :v
    def <(o) = @v < (o.is_a?(Meters) ? o.v : o)
    def coerce(o) = [Meters.new(o), self]
    def -(o) = Meters.new(@v - (o.is_a?(Meters) ? o.v : o))
  end

  def test_other_numerics_keep_numerics_methods
    assert_equal 3, Meters.new(-3).abs.v
    assert_equal(-4, (-Meters.new(4)).v)
    assert_equal Rational(1, 2), Rational(-1, 2).abs
    assert_equal Rational(-1, 2), -Rational(1, 2)
  end

  def test_redefinition_is_seen
    Integer.class_eval do
      alias_method :__nq22_abs, :abs
      define_method(:abs) { :redefined }
    end
    begin
      got = (-3).abs
    ensure
      Integer.class_eval do
        alias_method :abs, :__nq22_abs
        remove_method :__nq22_abs
      end
    end
    assert_equal :redefined, got
    assert_equal 3, (-3).abs
  end
end
