# String#unicode_normalize, #unicode_normalize! and #unicode_normalized? as CRuby's: the four
# Unicode forms (NFC by default), BINARY strings refused with Encoding::CompatibilityError, invalid
# UTF-8 with ArgumentError, a form other than the four Symbols with CRuby's message.

class UnicodeNormalizeTest < MnTest::Case
  def test_the_four_forms
    assert_equal "\u00e9", "e\u0301".unicode_normalize
    assert_equal [101, 769], "\u00e9".unicode_normalize(:nfd).codepoints
    assert_equal "\u00e9", "e\u0301".unicode_normalize(:nfc)
    assert_equal "fi", "\ufb01".unicode_normalize(:nfkc)
    assert_equal "fi", "\ufb01".unicode_normalize(:nfkd)
    assert_equal "\ufb01", "\ufb01".unicode_normalize(:nfc)
    assert_equal 8, "한국어".unicode_normalize(:nfd).length
    assert_equal "한국어", "한국어".unicode_normalize(:nfd).unicode_normalize(:nfc)
    assert_equal [101, 204, 129, 0, 122], "\u00e9\u0000z".unicode_normalize(:nfd).bytes
    assert_equal "", "".unicode_normalize
    assert_equal Encoding::US_ASCII, "abc".encode("US-ASCII").unicode_normalize.encoding
  end

  def test_normalized_p
    assert "\u00e9".unicode_normalized?
    refute "e\u0301".unicode_normalized?
    assert "e\u0301".unicode_normalized?(:nfd)
    refute "\ufb01".unicode_normalized?(:nfkc)
    assert "abc".unicode_normalized?(:nfkd)
  end

  def test_the_bang_form
    s = "e\u0301"
    assert_same s, s.unicode_normalize!
    assert_equal "\u00e9", s
    assert_equal 1, s.length
    assert_raise(FrozenError) { "x".freeze.unicode_normalize! }
    assert_raise(FrozenError) { "e\u0301".freeze.unicode_normalize! }
  end

  def test_bad_forms_and_strings
    e = assert_raise(ArgumentError) { "a".unicode_normalize(:xyz) }
    assert_equal "Invalid normalization form xyz.", e.message
    e = assert_raise(ArgumentError) { "\u00e9".unicode_normalize("nfd") }
    assert_equal "Invalid normalization form nfd.", e.message
    e = assert_raise(ArgumentError) { "\u00e9".unicode_normalize(nil) }
    assert_equal "Invalid normalization form .", e.message
    assert_raise(ArgumentError) { "a".unicode_normalize(:nfc, 1) }
    e = assert_raise(ArgumentError) { "\xff".unicode_normalize }
    assert_equal "invalid byte sequence in UTF-8", e.message
    e = assert_raise(Encoding::CompatibilityError) { "a".b.unicode_normalize }
    assert_equal "Unicode Normalization not appropriate for ASCII-8BIT", e.message
    assert_raise(Encoding::CompatibilityError) { "\xff".b.unicode_normalized? }
  end
end
