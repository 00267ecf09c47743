# The encodings of the Strings String#unpack and #unpack1 return, as CRuby's pack.c gives them:
# hex and bit strings (H h B b) are US-ASCII, the others (a A Z m M u) ASCII-8BIT.
# Expected values: CRuby 3.1 and 3.3.8.

class UnpackEncodingTest < MnTest::Case
  def test_hex_and_bit_strings_are_us_ascii
    %w[H* h* B* b* H4].each do |t|
      assert_equal Encoding::US_ASCII, "abc".unpack1(t).encoding, t
    end
  end

  def test_byte_strings_are_binary
    %w[a* A* Z*].each do |t|
      assert_equal Encoding::ASCII_8BIT, "abc".unpack1(t).encoding, t
    end
    assert_equal Encoding::ASCII_8BIT, "YWJj\n".unpack1("m").encoding
    assert_equal Encoding::ASCII_8BIT, "abc".unpack1("M").encoding
  end

  def test_each_string_of_unpack_has_its_directives_encoding
    a = "\x01abcd".b.unpack("Ca2H*")
    assert_equal [1, "ab", "6364"], a
    assert_equal Encoding::ASCII_8BIT, a[1].encoding
    assert_equal Encoding::US_ASCII, a[2].encoding
  end

  def test_unpack1_hex_after_a_number
    s = "\x01ab".b.unpack1("xH*")
    assert_equal "6162", s
    assert_equal Encoding::US_ASCII, s.encoding
  end
end
