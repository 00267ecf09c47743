# Strings in other encodings count characters as CRuby does (checked on CRuby 3.3.8 and ruby 3.1):
# one per byte in single-byte encodings, UTF-16 surrogate pairs, Shift_JIS / EUC-JP / GBK lead
# bytes; inspect as CRuby shows them in a UTF-8 program; CompatibilityError between them.

class EncodingStringsTest < MnTest::Case
  def latin(s) = s.dup.force_encoding("ISO-8859-1")

  def test_single_byte_strings
    s = latin("\xE9t\xE9")
    assert_equal 3, s.length
    assert_equal latin("\xE9"), s[0]
    assert_equal Encoding::ISO_8859_1, s[0].encoding
    assert_equal latin("t\xE9"), s[1, 2]
    assert_equal [latin("\xE9"), latin("t"), latin("\xE9")], s.chars
    assert_equal latin("\xE9t\xE9"), s.reverse
    assert_equal latin("T"), s.upcase[1]   # (CRuby also maps \xE9 to \xC9; mnrb only ASCII)
    assert_equal "ABC", latin("abc").upcase
    assert_equal 3, latin("\xE9t\xE9").each_char.to_a.size
    assert_equal "\"\\xE9t\\xE9\"", s.inspect
  end

  def test_utf16_characters
    s = "a😀b".encode("UTF-16LE")
    assert_equal 8, s.bytesize
    assert_equal 3, s.length
    assert_equal "😀".encode("UTF-16LE"), s[1]
    assert_equal ["a", "😀", "b"], s.chars.map { |c| c.encode("UTF-8") }
    assert_equal "b😀a", s.reverse.encode("UTF-8")
    assert_equal 3, "a😀b".encode("UTF-32BE").length
    assert_equal "😀", "a😀b".encode("UTF-32BE")[1].encode("UTF-8")
    assert_equal 2, "h\x00\x00\xD8".dup.force_encoding("UTF-16LE").length   # a lone surrogate: one unit
    if RUBY_VERSION >= "3.2"   # (ruby 3.1 read the byte order mark: 2)
      assert_equal 4, "\xFF\xFEh\x00".dup.force_encoding("UTF-16").length       # dummy: bytes
    end
    assert_equal false, "a".encode("UTF-16LE").ascii_only?
  end

  def test_multibyte_asian_characters
    s = "あいう".encode("Shift_JIS")
    assert_equal 6, s.bytesize
    assert_equal 3, s.length
    assert_equal "い", s[1].encode("UTF-8")
    assert_equal "ういあ", s.reverse.encode("UTF-8")
    assert_equal ["あ", "い", "う"], s.chars.map { |c| c.encode("UTF-8") }
    e = "aあｱ".encode("EUC-JP")
    assert_equal 3, e.length
    assert_equal "ｱ", e[2].encode("UTF-8")
    assert_equal 2, "中文".encode("GBK").length
    assert_equal 3, "a中b".encode("GB18030").length
    assert_equal 2, "中文".encode("Big5").length
    assert_equal 2, "한국".encode("EUC-KR").length
  end

  def test_inspect
    assert_equal "\"h\\u00E9llo\"", "héllo".encode("UTF-16LE").inspect
    assert_equal "\"a\\u{1F600}b\"", "a😀b".encode("UTF-16LE").inspect
    if RUBY_VERSION >= "3.2"   # (ruby 3.1: "\uFEFFh")
      assert_equal "\"\\xFF\\xFE\\x68\\x00\"", "\xFF\xFEh\x00".dup.force_encoding("UTF-16").inspect
    end
    assert_equal "\"\\x{82A0}\\x{82A2}\\x{82A4}\"", "あいう".encode("Shift_JIS").inspect
    assert_equal "\"\\x{A4A2}\"", "あ".encode("EUC-JP").inspect
    assert_equal "\"\\x82\"", "\x82".dup.force_encoding("Shift_JIS").inspect
    assert_equal "\"\\x61\"", "a".dup.force_encoding("UTF-16LE").inspect
    assert_equal "\"a\\nb\"", "a\nb".encode("UTF-16LE").inspect
  end

  def test_compatibility_errors
    e = assert_raise(Encoding::CompatibilityError) { "é" + latin("\xE9") }
    assert_equal "incompatible character encodings: UTF-8 and ISO-8859-1", e.message
    e = assert_raise(Encoding::CompatibilityError) { "a" + "h".encode("UTF-16LE") }
    assert_equal "incompatible character encodings: UTF-8 and UTF-16LE", e.message
    assert_raise(Encoding::CompatibilityError) { "あ".encode("Shift_JIS") + "é" }
    assert_equal Encoding::ISO_8859_1, ("a" + latin("\xE9")).encoding
    assert_equal Encoding::ISO_8859_1, (latin("\xE9") + "a").encoding
    assert_equal false, latin("\xE9") == "\xE9".b
    assert_equal false, "h".encode("UTF-16LE") == "h\x00"
    assert_equal false, "h\x00" == "h".encode("UTF-16LE")
    assert_equal true, latin("abc") == "abc"
    assert_equal "ab".encode("UTF-16LE"), "a".encode("UTF-16LE") + "b".encode("UTF-16LE")
  end
end
