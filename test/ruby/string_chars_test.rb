# A String is a sequence of characters (CRuby 3.1's String docs): on UTF-8 text size, [], []=, slice,
# reverse, index/rindex, each_char/chars, center/ljust/rjust, and the Regexp methods' positions
# (=~, MatchData#begin/end/offset, $~) count characters; bytesize, byteslice, getbyte and setbyte
# count bytes. An invalid byte is a character of its own.

class StringCharsTest < MnTest::Case
  def test_size_counts_characters
    assert_equal 5, "héllo".size
    assert_equal 5, "héllo".length
    assert_equal 6, "héllo".bytesize
    assert_equal 3, "日本語".size
    assert_equal 9, "日本語".bytesize
    assert_equal 1, "😀".size
    assert_equal 0, "".size
  end

  def test_invalid_bytes_are_one_character_each
    assert_equal 1, "\xff".size
    assert_equal 2, "\x80\x80".size
    assert_equal 3, "a\xffb".size
    assert_equal ["a", "\xff", "b"], "a\xffb".chars
    assert_equal 2, "\xe3\x81".size           # a truncated sequence: two bytes, two characters
  end

  def test_aref_by_index_and_range
    s = "héllo wörld"
    assert_equal "é", s[1]
    assert_equal "d", s[-1]
    assert_equal "ö", s[7]
    assert_equal "éll", s[1, 3]
    assert_equal "éll", s[1..3]
    assert_equal "wörld", s[6..]
    assert_nil s[20]
    assert_equal "", s[11, 2]
    assert_equal "本", "日本語".slice(1)
  end

  def test_aset_replaces_characters
    s = "héllo"
    s[1] = "e"
    assert_equal "hello", s
    s = "日本語"
    s[1, 1] = "x"
    assert_equal "日x語", s
    s = "aé"
    s[-1] = "ü"
    assert_equal "aü", s
  end

  def test_index_and_rindex_count_characters
    s = "héllo héllo"
    assert_equal 2, s.index("l")
    assert_equal 8, s.index("l", 4)
    assert_equal 9, s.rindex("l")
    assert_equal 1, s.index("é")
    assert_equal 7, s.index("é", 2)
    assert_equal 7, s.rindex("é")
    assert_equal 1, s.rindex("é", 6)
    assert_equal 8, s.index("l", -3)
  end

  def test_reverse_and_chars
    assert_equal "olléh", "héllo".reverse
    assert_equal ["日", "本", "語"], "日本語".chars
    out = []
    "aé".each_char { |c| out << c }
    assert_equal ["a", "é"], out
    assert_equal [104, 233], "hé".codepoints
    assert_equal 233, "é".ord
  end

  def test_padding_counts_characters
    assert_equal "*é*", "é".center(3, "*")
    assert_equal "é  ", "é".ljust(3)
    assert_equal "  é", "é".rjust(3)
    assert_equal "éàé", "".ljust(3, "éà")
    assert_equal "abéàé", "ab".ljust(5, "éà")
  end

  def test_bytes_api_counts_bytes
    s = "héllo"
    assert_equal [0xC3], s.byteslice(1).bytes
    assert_equal "é", s.byteslice(1, 2)
    assert_equal 0xC3, s.getbyte(1)
    assert_equal 3, s.byteindex("l") if s.respond_to?(:byteindex)   # CRuby 3.2+
    t = "abc"
    t.setbyte(0, 0x41)
    assert_equal "Abc", t
  end

  def test_sub_and_gsub_with_multibyte_patterns
    assert_equal "eé", "éé".sub("é", "e")
    assert_equal "ee", "éé".gsub("é", "e")
    assert_equal "hallo", "héllo".sub(/é/, "a")
    assert_equal "h-é-l", "h.é.l".gsub(".", "-")
    assert_equal "<é><a>", "éa".gsub(/(.)/, '<\1>')
  end

  def test_regexp_positions_are_characters
    assert_equal 2, "éab" =~ /b/
    assert_equal 2, /b/ =~ "éab"
    m = /(b)(c)/.match("日本bc")
    assert_equal 2, m.begin(0)
    assert_equal 4, m.end(0)
    assert_equal [3, 4], m.offset(2)
    assert_equal "日本", m.pre_match
    assert_equal 2, $~.begin(1)
    assert_equal [6, 7], m.byteoffset(1) if m.respond_to?(:byteoffset)   # CRuby 3.2+
  end

  def test_regexp_index_and_match_positions
    s = "héllo héllo"
    assert_equal 2, s.index(/l/)
    assert_equal 8, s.index(/l/, 4)
    assert_equal 9, s.rindex(/l/)
    assert_equal 7, s.index(/é/, -5)
    assert_equal 8, s.match(/l/, 7).begin(0)
    assert s.match?(/o/, 10)
    refute s.match?(/o/, 11)
  end

  def test_scan_and_split_by_characters
    assert_equal ["é", "à"], "éxàx".scan(/[^x]/)
    assert_equal ["a", "é", "b"], "a,é,b".split(",")
    assert_equal ["日", "本"], "日本".split("")
    assert_equal ["é", "b"], "é b".split
  end

  def test_sprintf_characters
    assert_equal "é", "%c" % 233
    assert_equal "日", "%c" % 0x65e5
    assert_equal "é", "%c" % "é"
    assert_equal "é", 233.chr("UTF-8")
  end

  def test_format_width_and_precision_count_characters
    assert_equal "é    |", "%-5s|" % "é"
    assert_equal "   日本|", "%5s|" % "日本"
    assert_equal "日本", "%.2s" % "日本語"
  end

  def test_delete_prefix_and_suffix_with_multibyte_text
    assert_equal "llo", "héllo".delete_prefix("hé")
    assert_equal "hél", "héllo".delete_suffix("lo")
  end

  def test_casecmp_p_beyond_ascii
    assert "ÀÉ".casecmp?("àé")
    assert "ПРИВЕТ".casecmp?("привет")
    refute "é".casecmp?("e")
  end

  def test_ascii_strings_stay_fast_and_correct
    s = "abc" * 1000
    assert_equal 3000, s.size
    assert_equal "c", s[2999]
    s << "é"
    assert_equal 3001, s.size
    assert_equal "é", s[3000]
  end

  # case mapping beyond ASCII: Latin-1 Supplement, Latin Extended-A, Greek, Cyrillic
  def test_upcase_and_downcase_latin
    assert_equal "ÉCOLE ÀÇÑÕ", "école àçñõ".upcase
    assert_equal "école àçñõ", "ÉCOLE ÀÇÑÕ".downcase
    assert_equal "ŁÓDŹ ŒUVRE ĞÜŞ", "łódź œuvre ğüş".upcase
    assert_equal "łódź", "ŁÓDŹ".downcase
    assert_equal "Ÿ", "ÿ".upcase
    assert_equal "SS", "ß".upcase
    assert_equal "ʼN", "ŉ".upcase
    assert_equal "I", "ı".upcase
    assert_equal "i̇", "İ".downcase
    assert_equal "Μ", "µ".upcase
  end

  def test_upcase_and_downcase_greek_and_cyrillic
    assert_equal "ΑΒΓΔ ΆΈΉ", "αβγδ άέή".upcase
    assert_equal "σασ", "ΣΑΣ".downcase   # CRuby 3.1 has no final-sigma rule
    assert_equal "Σ", "ς".upcase
    assert_equal "ПРИВЕТ МИР ЁЖ", "привет мир ёж".upcase
    assert_equal "привет", "ПРИВЕТ".downcase
    assert_equal "Ѣѣ", "ѣ".upcase + "Ѣ".downcase
  end

  def test_capitalize_and_swapcase
    assert_equal "École", "école".capitalize
    assert_equal "École", "ÉCOLE".capitalize
    assert_equal "Ss", "ß".capitalize
    assert_equal "Éé", "éÉ".swapcase
    assert_equal "SSA", "ßa".swapcase
    assert_equal "Москва", "мОСКВА".capitalize
  end

  def test_bang_forms_and_the_ascii_option
    s = "àé"
    assert_equal "ÀÉ", s.upcase!
    assert_equal "ÀÉ", s
    assert_nil "ÀÉ".upcase!
    assert_equal "École", "ÉCOLE".downcase(:ascii).capitalize(:ascii)
    assert_equal "École", "ÉCOLE".downcase(:ascii)
    assert_equal "\xC3\xA9A".b, "éa".b.upcase
  end

  def test_invalid_utf8_case_mapping_raises
    e = assert_raise(ArgumentError) { "\xffé".upcase }
    assert_equal "input string invalid", e.message
  end

  def test_tr_with_multibyte_characters
    assert_equal "ecole", "école".tr("é", "e")
    assert_equal "aeiou", "àéîõü".tr("àéîõü", "aeiou")
    assert_equal "h*ll*", "héllö".tr("éö", "*")
    assert_equal "héllö", "hello".tr("eo", "éö")
    assert_equal "**llo", "héllo".tr("^l-o", "*")
    assert_equal "ΑΒΓ", "αβγ".tr("α-ω", "Α-Ω")
    assert_equal "hélo", "hééllo".tr_s("él", "él")
    s = "café"
    assert_equal "cafe", s.tr!("é", "e")
    assert_nil "cafe".tr!("é", "e")
    e = assert_raise(ArgumentError) { "é".tr("z-a", "x") }
    assert_equal 'invalid range "z-a" in string transliteration', e.message
  end

  def test_delete_count_squeeze_with_multibyte_characters
    assert_equal "cf", "café".delete("aé")
    assert_equal 2, "éléphant".count("é")
    assert_equal 6, "éléphant".count("a-zé", "^p-z")
    assert_equal "éléphant", "ééléphant".squeeze("é")
    assert_equal "aé", "aaéé".squeeze
    assert_equal "日本", "日日本本".squeeze
    assert_equal "本", "日本".delete("日")
  end
end
