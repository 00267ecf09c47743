# String#succ as CRuby (mruby patch 0216): the rightmost alphanumeric is incremented, a carry goes on
# to the next alphanumeric on the left, across other characters unless it would cross from a digit
# to a letter or back there, and a carry off the left end adds a character.

class StringSuccTest < MnTest::Case
  def test_carry_across_separators
    assert_equal "2.0", "1.9".succ
    assert_equal "2.0.0", "1.9.9".succ
    assert_equal "1.2.0", "1.1.9".succ
    assert_equal "v2.0", "v1.9".succ
    assert_equal "2-00", "1-99".succ
  end

  def test_no_carry_between_a_digit_and_a_letter_across_a_separator
    assert_equal "a.10", "a.9".succ
    assert_equal "9.AA", "9.Z".succ
    assert_equal "Az-10", "Az-9".succ
    assert_equal "1.AA", "1.Z".succ
    assert_equal "b0", "a9".succ       # adjacent: the carry goes on
  end

  def test_plain_cases
    assert_equal "abd", "abc".succ
    assert_equal "ba", "az".succ
    assert_equal "AAa", "Zz".succ
    assert_equal "b0", "a9".succ
    assert_equal "aaa00", "zz99".succ
    assert_equal "-10", "-9".succ
    assert_equal "b-", "a-".succ
    assert_equal "<<koalb>>", "<<koala>>".succ
    assert_equal "", "".succ
    assert_equal ".", "-".succ
    assert_equal "\x01\x00".b, "\xff".b.succ
  end

  def test_succ_bang_and_next
    s = +"1.9"
    assert_same s, s.succ!
    assert_equal "2.0", s
    assert_equal "2.1", s.next
    assert_equal "az", ("ay".."az").to_a.last
    assert_equal ["1.8", "1.9", "2.0"], ("1.8".."2.0").to_a
  end

  def test_upto_counts_numbers_only_between_all_digit_ends
    assert_equal ["1.8", "1.9", "2.0"], "1.8".upto("2.0").to_a
    assert_equal ["08", "09", "10", "11"], ("08".."11").to_a
    assert_equal ["00", "01", "02"], "00".upto("02").to_a
    assert_equal ["9", "10", "11"], ("9".."11").to_a
    assert_equal ["a8", "a9", "b0"], ("a8".."b0").to_a
    assert_equal ["1a", "1b"], ("1a"..."1c").to_a
    assert_equal ["az"], ("az".."b").to_a
  end
end
