# Float#round and Integer#round take CRuby's half: keyword (helper compat3; mnrb-compat's
# float_round.c and rounding.rb): :up (the default, nil too) rounds an exact half away from zero,
# :even to the even neighbour, :down toward zero; what counts as a half is what :up would round
# up across (2.675 reads as the half 2.675), and Float#round to tens and beyond rounds the truncated
# Integer (so 25.4.round(-1, half: :even) is 20, as CRuby's). Checked on CRuby 3.1 and 3.3.8.
class RoundHalfTest < MnTest::Case
  def test_float_to_integer
    assert_equal [3, 2, 2], [2.5.round(half: :up), 2.5.round(half: :even), 2.5.round(half: :down)]
    assert_equal [-3, -2, -2], [-2.5.round(half: :up), -2.5.round(half: :even), -2.5.round(half: :down)]
    assert_equal [0, 2, 4, 3], [0.5.round(half: :even), 1.5.round(half: :even), 3.5.round(half: :even), 2.5.round(half: nil)]
    assert_equal [3, 4], [2.6.round(half: :down), 3.5.round(0, half: :up)]
    assert_kind_of Integer, 2.5.round(half: :even)
  end

  def test_float_digits
    assert_equal [2.68, 2.68, 2.67], [2.675.round(2, half: :up), 2.675.round(2, half: :even), 2.675.round(2, half: :down)]
    assert_equal [0.12, 0.13, 0.12], [0.125.round(2, half: :even), 0.125.round(2), 0.125.round(2, half: :down)]
    assert_equal [12.3, 2.5, 1.0e20], [12.345.round(1, half: :up), 2.5.round(1, half: :even), 1e20.round(2, half: :even)]
    assert_equal 0.12345678901234568, 0.1234567890123456785.round(18, half: :even)
  end

  def test_float_tens
    assert_equal [20, 30, 20], [25.0.round(-1, half: :even), 25.0.round(-1), 25.4.round(-1, half: :even)]
    assert_equal 30, 35.0.round(-1, half: :down)
  end

  def test_integer
    assert_equal [20, 20, 30], [25.round(-1, half: "even"), 25.round(-1, half: :down), 25.round(-1, half: :up)]
    assert_equal [-20, -20, -40, -30], [-25.round(-1, half: :down), -25.round(-1, half: :even),
                                        -35.round(-1, half: :even), -25.round(-1)]
    assert_equal [25, 25], [25.round(1, half: :even), 25.round(half: :foo)]   # not checked when nothing rounds
    assert_equal 10**20, (10**20 + 5 * 10**18).round(-19, half: :even)
  end

  def test_invalid_mode
    assert_equal "invalid rounding mode: foo", assert_raise(ArgumentError) { 2.5.round(half: :foo) }.message
    assert_equal "invalid rounding mode: foo", assert_raise(ArgumentError) { 25.round(-1, half: :foo) }.message
  end
end
