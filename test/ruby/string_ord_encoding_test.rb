# String#ord by the string's encoding, as CRuby: a BINARY or US-ASCII string's first byte; UTF-8
# decoded (with CRuby's error for a broken sequence). mnrb decoded UTF-8 whatever the encoding
# ("\xc3".b.ord raised; webrick's escaping calls it). Run on CRuby 3.3.8 and 3.1.
class StringOrdEncodingTest < MnTest::Case
  def test_binary_string
    assert_equal 195, "\xc3".b.ord
    assert_equal 255, "\xff\x00".b.ord
    assert_equal 255, "\xff".force_encoding("ASCII-8BIT").ord
  end

  def test_single_byte_encoding
    assert_equal 0xe9, "\xe9".force_encoding("ISO-8859-1").ord
  end

  def test_utf8
    assert_equal [97, 0x3042], ["a".ord, "\u3042x".ord]
    e = assert_raise(ArgumentError) { "\xc3".ord }
    assert_equal "invalid byte sequence in UTF-8", e.message
    assert_equal "empty string", assert_raise(ArgumentError) { "".b.ord }.message
  end
end
