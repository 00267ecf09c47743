# \u{H...} in a pattern (one or more code points), as CRuby: REXML's name patterns use
# [\u{10000}-\u{EFFFF}], which Oniguruma's Ruby syntax rejected ("invalid code point value").
# Run on CRuby 3.3.8 and 3.1.
class RegexpUnicodeBraceTest < MnTest::Case
  def test_single_code_point
    assert_equal 1, /\u{10001}/ =~ "a\u{10001}"
    assert_equal 0, Regexp.new("\\u{FFFF}") =~ "\u{FFFF}"
    assert_equal "\\u{10000}", /\u{10000}/.source
  end

  def test_ranges_in_classes
    re = /\A[\u{10000}-\u{EFFFF}a]+\z/
    assert_equal 0, re =~ "a\u{10000}\u{EFFFF}"
    assert_nil re =~ "b"
  end

  def test_several_code_points
    assert_equal 0, /\A\u{41 42  43}\z/ =~ "ABC"
    assert_equal 0, /\A[\u{61 62}]+\z/ =~ "abba"
  end

  def test_escaped_backslash_is_not_an_escape
    assert_equal 0, /\\u{2}/ =~ "\\uu"
  end
end
