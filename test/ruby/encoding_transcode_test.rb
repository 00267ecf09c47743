# String#encode between legacy and Unicode encodings (glibc iconv underneath), with CRuby's
# errors, messages and attributes (checked against CRuby 3.3.8 and ruby 3.1), its replacement,
# XML and newline options; encode!, scrub and force_encoding in these encodings.

class EncodingTranscodeTest < MnTest::Case
  def test_latin1_round_trip
    s = "héllo".encode("ISO-8859-1")
    assert_equal "h\xE9llo".b, s.b
    assert_equal Encoding::ISO_8859_1, s.encoding
    assert_equal 5, s.bytesize
    u = s.encode("UTF-8")
    assert_equal "héllo", u
    assert_equal Encoding::UTF_8, u.encoding
    assert_equal "é", "\xE9".force_encoding("ISO-8859-1").encode("UTF-8")
    assert_equal "€", "\x80".force_encoding("Windows-1252").encode("UTF-8")
    assert_equal "\x80".b, "€".encode("CP1252").b
    assert_equal "Ж", "\xF6".force_encoding("KOI8-R").encode("UTF-8")
    assert_equal "\xE9".b, "é".encode("ISO-8859-1", "UTF-8").b
  end

  def test_utf16_and_utf32
    s = "héllo".encode("UTF-16LE")
    assert_equal "h\x00\xE9\x00l\x00l\x00o\x00".b, s.b
    assert_equal 10, s.bytesize
    assert_equal 5, s.length
    assert_equal "héllo", s.encode("UTF-8")
    assert_equal "\x00h".b, "h".encode("UTF-16BE").b
    assert_equal "\xFE\xFF\x00\xE9".b, "é".encode("UTF-16").b
    assert_equal "\x00\x00\xFE\xFF\x00\x00\x00\xE9".b, "é".encode("UTF-32").b
    assert_equal "\x3D\xD8\x00\xDE".b, "😀".encode("UTF-16LE").b
    assert_equal "é", "\xFF\xFE\xE9\x00".force_encoding("UTF-16").encode("UTF-8")
    assert_equal "é", "\x00\x00\x00\xE9".force_encoding("UTF-32BE").encode("UTF-8")
  end

  def test_asian_encodings
    assert_equal "\x82\xA0".b, "あ".encode("Shift_JIS").b
    assert_equal "\x82\xA0".b, "あ".encode("Windows-31J").b
    assert_equal "\xA4\xA2".b, "あ".encode("EUC-JP").b
    assert_equal "\\~".b, "\\~".encode("Shift_JIS").b   # ASCII stays ASCII
    assert_equal "あいう", "\x82\xA0\x82\xA2\x82\xA4".force_encoding("Shift_JIS").encode("UTF-8")
    assert_equal "中文", "中文".encode("GBK").encode("UTF-8")
    assert_equal "中文", "中文".encode("GB18030").encode("UTF-8")
    assert_equal "中文", "中文".encode("Big5").encode("UTF-8")
    assert_equal "한국", "한국".encode("EUC-KR").encode("UTF-8")
    assert_equal "\xA4\xA2".b, "\x82\xA0".force_encoding("Shift_JIS").encode("EUC-JP").b
  end

  def test_undefined_conversion_errors
    e = assert_raise(Encoding::UndefinedConversionError) { "あ".encode("ISO-8859-1") }
    assert_equal "U+3042 from UTF-8 to ISO-8859-1", e.message
    assert_equal "あ", e.error_char
    assert_equal "UTF-8", e.source_encoding_name
    assert_equal "ISO-8859-1", e.destination_encoding_name
    assert_same Encoding::UTF_8, e.source_encoding
    assert_same Encoding::ISO_8859_1, e.destination_encoding
    e = assert_raise(Encoding::UndefinedConversionError) { "\x81".force_encoding("Windows-1252").encode("UTF-8") }
    assert_equal "\"\\x81\" to UTF-8 in conversion from Windows-1252 to UTF-8", e.message
    e = assert_raise(Encoding::UndefinedConversionError) { "\xE9".force_encoding("ISO-8859-1").encode("Shift_JIS") }
    assert_equal "U+00E9 to Shift_JIS in conversion from ISO-8859-1 to UTF-8 to Shift_JIS", e.message
    e = assert_raise(Encoding::UndefinedConversionError) { "\xE9".b.encode("ISO-8859-2") }
    assert_equal "\"\\xE9\" to UTF-8 in conversion from ASCII-8BIT to UTF-8 to ISO-8859-2", e.message
    e = assert_raise(Encoding::UndefinedConversionError) { "é".encode("ISO-8859-1").encode("BINARY") }
    assert_equal "U+00E9 to ASCII-8BIT in conversion from ISO-8859-1 to UTF-8 to ASCII-8BIT", e.message
    e = assert_raise(Encoding::UndefinedConversionError) { "é".encode("US-ASCII") }
    assert_equal "U+00E9 from UTF-8 to US-ASCII", e.message
  end

  def test_invalid_byte_sequence_errors
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\xFF".encode("UTF-16LE") }
    assert_equal "\"\\xFF\" on UTF-8", e.message
    assert_equal "\xFF".b, e.error_bytes
    assert_equal "UTF-8", e.source_encoding_name
    assert_equal "UTF-16LE", e.destination_encoding_name
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\x82".force_encoding("Shift_JIS").encode("UTF-8") }
    assert_equal "incomplete \"\\x82\" on Shift_JIS", e.message
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\xFF".force_encoding("Shift_JIS").encode("UTF-8") }
    assert_equal "\"\\xFF\" on Shift_JIS", e.message
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\xA4".force_encoding("EUC-JP").encode("UTF-8") }
    assert_equal "incomplete \"\\xA4\" on EUC-JP", e.message
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\x00\xD8".force_encoding("UTF-16LE").encode("UTF-8") }
    assert_equal "incomplete \"\\x00\\xD8\" on UTF-16LE", e.message
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\x00\xD8a\x00".force_encoding("UTF-16LE").encode("UTF-8") }
    assert_equal "\"\\x00\\xD8\" followed by \"a\\x00\" on UTF-16LE", e.message
    assert_equal "a\x00".b, e.readagain_bytes.b
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\xE9".force_encoding("US-ASCII").encode("UTF-8") }
    assert_equal "\"\\xE9\" on US-ASCII", e.message
  end

  def test_converter_not_found
    e = assert_raise(Encoding::ConverterNotFoundError) { "a".encode("UTF-7x") }
    assert_equal "code converter not found (UTF-8 to UTF-7x)", e.message
  end

  def test_replacement_options
    assert_equal "*", "あ".encode("ISO-8859-1", undef: :replace, replace: "*")
    assert_equal "a?", "aあ".encode("ISO-8859-1", undef: :replace)
    assert_equal "a\uFFFDb", "a\xFFb".encode("UTF-16LE", invalid: :replace).encode("UTF-8")
    assert_equal "a?b", "a\xFFb".encode("ISO-8859-1", invalid: :replace)
    assert_equal "Ã©\uFFFD", "\xC3\xA9\x81".dup.force_encoding("Windows-1252").encode("UTF-8", undef: :replace)
  end

  def test_xml_and_newline_options
    assert_equal "&lt;a&amp;\"b&gt;", "<a&\"b>".encode("UTF-8", xml: :text)
    assert_equal "\"&lt;a&amp;&quot;b&gt;\"", "<a&\"b>".encode("UTF-8", xml: :attr)
    assert_equal "a&#xE9;", "aé".encode("US-ASCII", xml: :text)
    assert_equal "a&#x3042;", "aあ".encode("ISO-8859-1", xml: :text)
    assert_equal "a\r\nb", "a\nb".encode("UTF-8", crlf_newline: true)
    assert_equal "a\nb\nc", "a\r\nb\rc".encode("UTF-8", universal_newline: true)
    assert_equal "a\rb", "a\nb".encode("UTF-8", cr_newline: true)
  end

  def test_encode_bang_and_force_encoding
    s = +"héllo"
    assert_same s, s.encode!("ISO-8859-1")
    assert_equal Encoding::ISO_8859_1, s.encoding
    assert_equal 5, s.bytesize
    s.encode!("UTF-8")
    assert_equal "héllo", s
    t = "\xE9".dup.force_encoding("ISO-8859-1")
    assert_equal Encoding::ISO_8859_1, t.encoding
    assert_equal true, t.valid_encoding?
    assert_equal true, "\x81".dup.force_encoding("Windows-1252").valid_encoding?
    assert_equal false, "\x82".dup.force_encoding("Shift_JIS").valid_encoding?
    assert_equal true, "\x82\xA0".dup.force_encoding("Shift_JIS").valid_encoding?
    assert_equal false, "a".dup.force_encoding("UTF-16LE").valid_encoding?
    assert_equal true, "a\x00".dup.force_encoding("UTF-16LE").valid_encoding?
  end

  def test_scrub_other_encodings
    assert_equal "\xE9".b, "\xE9".dup.force_encoding("ISO-8859-1").scrub.b
    assert_equal "\x82\xA0?".b, "\x82\xA0\xFF".dup.force_encoding("Shift_JIS").scrub.b
    assert_equal "a\x00\xFD\xFF".b, "a\x00\x00\xD8".dup.force_encoding("UTF-16LE").scrub.b
  end

  def test_unicode_normalize_unaffected
    assert_equal "é", "e\u0301".unicode_normalize(:nfc)
    assert_equal "héllo", "héllo".encode("ISO-8859-1").encode("UTF-8").unicode_normalize
  end

  def test_converter_basic_use
    c = Encoding::Converter.new("UTF-8", "ISO-8859-1")
    assert_equal "\xE9".b, c.convert("é").b
    assert_same Encoding::UTF_8, c.source_encoding
    assert_same Encoding::ISO_8859_1, c.destination_encoding
    assert_equal "?", c.replacement
    assert_equal "#<Encoding::Converter: UTF-8 to ISO-8859-1>", c.inspect
    assert_equal "", c.finish
    e = assert_raise(ArgumentError) { c.convert("a") }
    assert_equal "converter already finished", e.message
    assert_equal "?", Encoding::Converter.new("UTF-8", "ISO-8859-1", undef: :replace).convert("あ")
    flags = Encoding::Converter::UNDEF_REPLACE
    assert_equal "?", Encoding::Converter.new("UTF-8", "ISO-8859-1", flags).convert("あ")
    e = assert_raise(Encoding::ConverterNotFoundError) { Encoding::Converter.new("UTF-8", "X-Y") }
    assert_equal "code converter not found (UTF-8 to X-Y)", e.message
  end
end
