# The VM's arithmetic and comparisons on their fast paths (patches/mruby/0044: two fixnums or two
# immediate floats tested by tag first) give CRuby's results at every boundary: fixnum results
# that overflow into heap Integers and Bignums, Float results beyond the immediate range (huge,
# tiny, Infinity, NaN), zero divisors, mixed operands. Expected values are CRuby's; the operands
# come from variables so that the compiler cannot fold them.

class ArithFastPathsTest < MnTest::Case
  FIX_MAX = 2**62 - 1   # mnrb's largest fixnum on 64-bit; an ordinary Integer in CRuby
  FIX_MIN = -2**62

  def test_integer_results_across_the_fixnum_boundary
    a = FIX_MAX
    b = 1
    assert_equal 4611686018427387904, a + b
    assert_equal 4611686018427387902, a - b
    c = FIX_MIN
    assert_equal(-4611686018427387905, c - b)
    assert_equal 9223372036854775806, a * 2
    assert_equal 21267647932558653957237540927630737409, a * a
    assert_equal 9223372036854775807, (a + b) + (a)
    assert_equal 9223372036854775808, (a + b) + (a + b)
    x = 2**63
    assert_equal 2**63 - 1, x - b
    assert_equal 0, (a + b) - (a + b)
  end

  def test_integer_increments_across_the_fixnum_boundary
    i = FIX_MAX - 2
    4.times { i += 1 }
    assert_equal 2**62 + 1, i
    j = FIX_MIN + 2
    4.times { j -= 1 }
    assert_equal(-2**62 - 2, j)
  end

  def test_float_results_inside_and_beyond_the_immediate_range
    a = 1.5
    b = 2.25
    assert_equal 3.75, a + b
    assert_equal(-0.75, a - b)
    assert_equal 3.375, a * b
    big = 1.0e70
    assert_equal 1.0e140, big * big
    assert_equal Float::INFINITY, (big * big) * (big * big) * big
    tiny = 1.0e-70
    assert_equal 1.0e-140, tiny * tiny
    assert_equal 0.0, (tiny * tiny) * (tiny * tiny) * tiny
    assert_equal 0.30000000000000004, 0.1 + 0.2
    assert_equal 1.0000000000000002, 1.0 + 2.220446049250313e-16
    z = 0.0
    assert_equal "-0.0", (z * -1.0).to_s
    assert_equal 1.0e-77 * 1.0e-1, 1.0e-78
  end

  def test_float_division
    a = 7.0
    assert_equal 3.5, a / 2.0
    assert_equal Float::INFINITY, a / 0.0
    assert_equal(-Float::INFINITY, a / -0.0)
    assert_equal(-Float::INFINITY, -a / 0.0)
    assert (0.0 / 0.0).nan?
    assert_equal 1.0e-300, 1.0e-100 / 1.0e200
    assert_equal 3, 7 / 2
    assert_equal(-4, -7 / 2)
    assert_raise(ZeroDivisionError) { a.to_i / 0 }
  end

  def test_comparisons
    a = 1.5
    b = 2.5
    assert_equal [true, true, false, false], [a < b, a <= b, a > b, a >= b]
    assert_equal [false, true, false, true], [a < a, a <= a, a > a, a >= a]
    n = 0.0 / 0.0
    assert_equal [false, false, false, false], [n < a, n <= a, n > a, n >= a]
    assert_equal [false, false, false, false], [a < n, a <= n, a > n, a >= n]
    i = 3
    j = 5
    assert_equal [true, true, false, false], [i < j, i <= j, i > j, i >= j]
    assert_equal [false, true], [FIX_MAX < FIX_MIN, FIX_MIN < FIX_MAX]
    huge = 1.0e300
    assert huge > 1.0e299
    assert 2**53 + 1 > 2.0**53
    assert_equal false, 2**53 + 1 == 2.0**53
  end

  def test_mixed_and_other_operands
    assert_equal 3.5, 1 + 2.5
    assert_equal 3.5, 2.5 + 1
    assert_equal 0.5, 1 / 2.0
    assert_equal "ab", "a" + "b"
    assert_equal 2**64 + 1, 2**64 + 1
    assert_equal 1.0e300, 1.0e300 + 1
    assert_raise(TypeError) { 1 + nil }
    assert_raise(NoMethodError) { nil + 1 }
  end
end
