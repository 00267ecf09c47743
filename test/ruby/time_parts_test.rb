# Time#tv_sec/tv_usec/tv_nsec, isdst, to_a, subsec, round/floor/ceil with digits (CRuby 3.1;
# this file passes there too). mnrb's Time counts microseconds, so the times used have no more.

class TimePartsTest < MnTest::Case
  def t = Time.at(1_700_000_000, 123_456).utc

  def test_parts
    assert_equal 1_700_000_000, t.tv_sec
    assert_equal 123_456, t.tv_usec
    assert_equal 123_456_000, t.tv_nsec
    assert_equal false, t.isdst
    assert_equal [20, 13, 22, 14, 11, 2023, 2, 318, false, "UTC"], t.to_a
  end

  def test_subsec
    assert_equal 0, Time.at(5).subsec
    if Object.const_defined?(:Rational)
      assert_equal Rational(123_456, 1_000_000), t.subsec
      assert_equal Rational(1_700_000_000_123_456, 1_000_000), t.to_r
    end
  end

  def test_round_floor_ceil
    assert_equal 0, t.round.usec
    assert_equal 1_700_000_000, t.round.to_i
    assert_equal 123_000, t.round(3).usec
    assert_equal 123_500, t.round(4).usec
    assert_equal 123_460, t.round(5).usec
    assert_equal 123_456, t.round(6).usec
    assert_equal 123_456, t.round(9).usec
    assert_equal 123_400, t.floor(4).usec
    assert_equal 123_500, t.ceil(4).usec
    assert_equal 1_700_000_001, t.ceil.to_i
    assert_equal 1_700_000_000, t.floor.to_i
    assert_equal 1_700_000_001, Time.at(1_700_000_000, 500_000).round.to_i
    assert t.round(3).utc?
    assert_equal 1_700_000_000, Time.at(1_700_000_000).ceil.to_i
    e = assert_raise(ArgumentError) { t.round(-1) }
    assert_equal "negative ndigits given", e.message
  end
end
