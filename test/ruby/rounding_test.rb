# Float#round, #floor, #ceil and #truncate to a number of digits, and Integer's to negative digits,
# as CRuby 3.1 (mnrb-compat: src/float_round.c, mrblib/rounding.rb): a Float for digits after the
# point, scaled with CRuby's nudge (1.005.round(2) is 1.01); an exact Integer for digits before it;
# halves away from zero unless round's half: says :even or :down (CRuby 3.3's rules; 3.1 rounds some
# inexact halves differently: 1.145.round(2, half: :even) is 1.14 there, 1.15 in 3.3).
# test/float-compare.sh compares random cases with CRuby.

class RoundingTest < MnTest::Case
  def test_round_to_digits_after_the_point
    assert_equal 1.01, 1.005.round(2)
    assert_equal 2.68, 2.675.round(2)
    assert_equal 5.02, 5.015.round(2)
    assert_equal 1.5, 1.5.round(1)
    assert_equal(-1.24, -1.235.round(2))
    assert_equal 0.1, 0.1.round(20)
    assert_equal 1.0e-20, 1.0e-20.round(25)
    assert_equal 0.0, 1.0e-20.round(5)
  end

  def test_round_beyond_fourteen_digits_rounds_the_exact_value
    assert_equal 7.6293945313e-06, (2.0**-17).round(16)
    assert_equal 7.6293945312e-06, (2.0**-17).floor(16)
    assert_equal "0.0", -4.546011397674931e-29.round(23).to_s
  end

  def test_round_to_digits_before_the_point_is_an_exact_integer
    assert_equal 10, 12.34.round(-1)
    assert_kind_of Integer, 12.34.round(-1)
    assert_equal 10, 5.5.round(-1)
    assert_equal(-10, -5.5.round(-1))
    assert_equal 10**300, 1e300.round(-298)
    assert_equal 0, 1.5e20.round(-400)
  end

  def test_floor_and_ceil_to_digits
    assert_equal 1.23, 1.23456.floor(2)
    assert_equal 1.24, 1.23456.ceil(2)
    assert_equal(-1.24, -1.23456.floor(2))
    assert_equal 0.29, 0.29.floor(2)
    assert_equal 1.1, 1.1.ceil(1)
    assert_equal 12300, 12345.678.floor(-2)
    assert_equal 12400, 12345.678.ceil(-2)
    assert_equal 0, 1.5.floor(-1)
    assert_equal 0.1, 0.1.ceil(20)
    assert_equal 1.1, 1.1.floor(1)
    assert_equal 10**300, 1e300.floor(-298)
    assert_equal [1.23, -1.23], [1.23456.truncate(2), -1.23456.truncate(2)]
    assert_equal 10**300, 1e300.truncate(-298)
  end

  def test_rounding_infinity_and_nan_to_an_integer_raises
    [Float::INFINITY, -Float::INFINITY, Float::NAN].each do |x|
      %i(round floor ceil truncate).each do |m|
        assert_raise(FloatDomainError) { x.send(m) }
        assert_raise(FloatDomainError) { x.send(m, -1) }
      end
      assert x.round(2).equal?(x) || x.nan?
    end
  end

  def test_integer_round_to_negative_digits
    assert_equal [12300, 12400, -12400], [12345.round(-2), 12350.round(-2), -12350.round(-2)]
    assert_equal [10, 20, -20, 30], [5.round(-1), 15.round(-1), -15.round(-1), 25.round(-1)]
    assert_equal 12345, 12345.round(2)
    assert_equal 0, 5.round(-400)
  end

  def test_integer_floor_ceil_truncate_to_negative_digits
    assert_equal [12300, -12400, -12300], [12345.floor(-2), -12345.floor(-2), -12300.floor(-2)]
    assert_equal [12400, -12300, 12300], [12345.ceil(-2), -12345.ceil(-2), 12300.ceil(-2)]
    assert_equal [12300, -12300], [12345.truncate(-2), -12345.truncate(-2)]
    assert_equal(-10**19, -3.floor(-19))
    assert_equal 10**19, 3.ceil(-19)
  end

  # (118 * 10**19, not a literal: port33's compiler reads -N as N when N, a bigint literal, also
  # appears unsigned in the same method)
  def test_bigint_rounding_is_exact
    x = 2**70
    assert_equal 118 * 10**19, x.round(-19)
    assert_equal 118 * 10**19, x.floor(-19)
    assert_equal 119 * 10**19, x.ceil(-19)
    assert_equal(-118 * 10**19, (-x).round(-19))
    assert_equal(-118 * 10**19, (-x).truncate(-19))
    assert_equal 18446744073709551700, (2**64 + 50).round(-2)
    assert_equal 10**19, (5 * 10**18).round(-19)
  end

  def test_round_half_even_and_down_at_exact_halves
    assert_equal [2, 4, -2, -4], [2.5, 3.5, -2.5, -3.5].map { |x| x.round(half: :even) }
    assert_equal [2, 3, -2, -3], [2.5, 3.5, -2.5, -3.5].map { |x| x.round(half: :down) }
    assert_equal [3, 4, -3, -4], [2.5, 3.5, -2.5, -3.5].map { |x| x.round(half: :up) }
    assert_equal 3, 2.5.round(half: nil)
    assert_equal 0.12, 0.125.round(2, half: :even)
    assert_equal 0.38, 0.375.round(2, half: :even)
    assert_equal 0.12, 0.125.round(2, half: :down)
    assert_equal 2.5, 2.5.round(1, half: :even)
    assert_kind_of Integer, 2.5.round(half: :even)
    assert_kind_of Float, 2.25.round(1, half: :even)
  end

  def test_round_half_even_of_an_inexact_half_follows_cruby_3_3
    assert_equal 2.68, 2.675.round(2, half: :even)   # 2.67499999999999982236431605997495353221893310546875
    assert_equal 0.55, 0.545.round(2, half: :even)   # a little above the half
    assert_equal 1.1, 1.05.round(1, half: :even)
    assert_equal 1.15, 1.145.round(2, half: :even)
    assert_equal 1.0, 1.05.round(1, half: :down)
    assert_equal 0.0, -0.005.round(2, half: :down)
    assert_equal "0.0", -0.005.round(2, half: :down).to_s
    assert_equal "-0.0", -0.005.round(2, half: :even).to_s
  end

  def test_round_half_beyond_fourteen_digits_is_exact
    assert_equal 7.6293945312e-06, (2.0**-17).round(16, half: :even)   # ...3125: the 2 is even
    assert_equal 7.6293945312e-06, (2.0**-17).round(16, half: :down)
    assert_equal 7.6293945313e-06, (2.0**-17).round(16, half: :up)
  end

  def test_integer_round_half
    assert_equal [20, 40, -20, -40], [25, 35, -25, -35].map { |i| i.round(-1, half: :even) }
    assert_equal [20, 30, -20, -30], [25, 35, -25, -35].map { |i| i.round(-1, half: :down) }
    assert_equal [30, 40, -30, -40], [25, 35, -25, -35].map { |i| i.round(-1, half: :up) }
    assert_equal 30, 26.round(-1, half: :down)
    assert_equal 2 * 10**20, (2 * 10**20 + 5 * 10**19).round(-20, half: :even)
    assert_equal 20, 25.5.round(-1, half: :even)   # a Float to digits before the point: to_i first
    assert_equal 10, 15.5.round(-1, half: :down)
  end

  def test_round_half_errors
    e = assert_raise(ArgumentError) { 2.5.round(half: :foo) }
    assert_equal "invalid rounding mode: foo", e.message
    e = assert_raise(ArgumentError) { 25.round(0, half: 3) }
    assert_equal "invalid rounding mode: 3", e.message
    assert_equal 25, 25.round(half: :foo)            # no digits given: self, the mode unread
    assert_equal 2, 2.5.round(half: "even")
    e = assert_raise(TypeError) { 2.5.round(nil) }
    assert_equal "no implicit conversion from nil to integer", e.message
    assert_raise(TypeError) { 25.round(nil) }
    assert_raise(TypeError) { 2.5.floor(nil) }
    assert_raise(ArgumentError) { 2.5.round(1, bad: 2) }
  end
end
