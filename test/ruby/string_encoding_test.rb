# String encodings (CRuby 3.1's String and Encoding docs): UTF-8 for literals, ASCII-8BIT (BINARY)
# for b, pack and unpack, US-ASCII where CRuby uses it; force_encoding, valid_encoding?,
# ascii_only?, scrub, encode between the three with CRuby's errors and replacement options,
# Encoding::CompatibilityError where CRuby raises it, and inspect.

class StringEncodingTest < MnTest::Case
  def test_literals_are_utf8
    assert_equal Encoding::UTF_8, "é".encoding
    assert_equal Encoding::UTF_8, "abc".encoding
    assert_equal Encoding::UTF_8, "#{1}x".encoding
  end

  def test_encoding_constants_and_names
    assert_same Encoding::ASCII_8BIT, Encoding::BINARY
    assert_same Encoding::US_ASCII, Encoding::ASCII
    assert_equal "UTF-8", Encoding::UTF_8.name
    assert_equal "ASCII-8BIT", Encoding::BINARY.to_s
    assert_equal "US-ASCII", Encoding::US_ASCII.name
    assert_equal "#<Encoding:UTF-8>", Encoding::UTF_8.inspect
    assert_equal "#<Encoding:ASCII-8BIT>", Encoding::BINARY.inspect
    assert_equal ["ASCII-8BIT", "BINARY"], Encoding::BINARY.names.first(2)
    assert_equal Encoding::UTF_8, Encoding.default_external
    assert_nil Encoding.default_internal
  end

  def test_encoding_find
    assert_same Encoding::BINARY, Encoding.find("binary")
    assert_same Encoding::UTF_8, Encoding.find("utf-8")
    assert_same Encoding::US_ASCII, Encoding.find("US-ASCII")
    e = assert_raise(ArgumentError) { Encoding.find("foo") }
    assert_equal "unknown encoding name - foo", e.message
  end

  def test_b_is_binary_and_counts_bytes
    b = "é".b
    assert_equal Encoding::ASCII_8BIT, b.encoding
    assert_equal 2, b.size
    assert_equal "\xC3".b, b[0]
    assert_equal "\xA9\xC3".b, b.reverse
    assert_equal Encoding::UTF_8, "é".encoding   # b copies
  end

  def test_force_encoding_changes_the_view_not_the_bytes
    s = "é".b
    assert_equal 2, s.size
    s.force_encoding("UTF-8")
    assert_equal 1, s.size
    assert_equal "é", s
    s.force_encoding(Encoding::BINARY)
    assert_equal [0xC3, 0xA9], s.bytes
    assert_raise(ArgumentError) { "x".force_encoding("foo") }
    assert_raise(FrozenError) { "x".freeze.force_encoding("BINARY") }
  end

  def test_valid_encoding_and_ascii_only
    assert "é".valid_encoding?
    refute "\xff".valid_encoding?
    refute "\xe3\x81".valid_encoding?
    refute "\xed\xa0\x80".valid_encoding?       # a surrogate
    assert "\xff".b.valid_encoding?
    refute "\xff".force_encoding("US-ASCII").valid_encoding?
    assert "abc".ascii_only?
    refute "é".ascii_only?
    refute "\xff".b.ascii_only?
  end

  def test_equality_needs_the_same_encoding_unless_ascii
    refute_equal "é", "é".b
    assert_equal "a", "a".b
    assert_equal "a", "a".force_encoding("US-ASCII")
  end

  def test_concatenation_picks_the_encoding_as_cruby
    assert_equal Encoding::UTF_8, ("a".b + "é").encoding
    assert_equal Encoding::UTF_8, ("é" + "a".b).encoding
    assert_equal Encoding::ASCII_8BIT, ("a" << "\xff".b).encoding
    assert_equal Encoding::UTF_8, ("".b << "é").encoding
    assert_equal Encoding::UTF_8, ("é" << "a".b).encoding
    assert_equal Encoding::ASCII_8BIT, ("\xff".b + "a").encoding
  end

  def test_incompatible_concatenation_raises
    e = assert_raise(Encoding::CompatibilityError) { "é" + "\xff".b }
    assert_equal "incompatible character encodings: UTF-8 and ASCII-8BIT", e.message
    e = assert_raise(Encoding::CompatibilityError) { "\xff".b + "é" }
    assert_equal "incompatible character encodings: ASCII-8BIT and UTF-8", e.message
    s = "é"
    assert_raise(Encoding::CompatibilityError) { s << "\xff".b }
    assert_equal "é", s
    assert_raise(Encoding::CompatibilityError) { "é#{"\xff".b}" }
    assert_kind_of EncodingError, e
  end

  def test_encode_to_binary_and_us_ascii
    e = assert_raise(Encoding::UndefinedConversionError) { "é".encode("BINARY") }
    assert_equal "U+00E9 from UTF-8 to ASCII-8BIT", e.message
    e = assert_raise(Encoding::UndefinedConversionError) { "é".encode("US-ASCII") }
    assert_equal "U+00E9 from UTF-8 to US-ASCII", e.message
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\xff".encode("US-ASCII") }
    assert_equal '"\xFF" on UTF-8', e.message
    assert_equal "abc", "abc".encode("US-ASCII")
    assert_equal Encoding::US_ASCII, "abc".encode("US-ASCII").encoding
  end

  def test_encode_from_binary_and_us_ascii
    e = assert_raise(Encoding::UndefinedConversionError) { "\xC3".b.encode("UTF-8") }
    assert_equal '"\xC3" from ASCII-8BIT to UTF-8', e.message
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\xC3".force_encoding("US-ASCII").encode("UTF-8") }
    assert_equal '"\xC3" on US-ASCII', e.message
    e = assert_raise(Encoding::UndefinedConversionError) { "\xC3".b.encode("US-ASCII") }
    assert_equal '"\xC3" to UTF-8 in conversion from ASCII-8BIT to UTF-8 to US-ASCII', e.message
    assert_equal Encoding::UTF_8, "abc".b.encode("UTF-8").encoding
  end

  def test_encode_with_replacement_options
    assert_equal "?", "é".encode("US-ASCII", undef: :replace)
    assert_equal "??", "é\xff".encode("US-ASCII", undef: :replace, invalid: :replace)
    assert_equal "**", "é\xff".encode("US-ASCII", undef: :replace, invalid: :replace, replace: "*")
    assert_equal "\uFFFD", "\xC3".b.encode("UTF-8", undef: :replace)
    assert_equal "a\uFFFDb", "a\xffb".encode("UTF-8", invalid: :replace)
    assert_equal "\xff", "\xff".encode("UTF-8")       # the same encoding: nothing checked
  end

  def test_invalid_sequence_messages
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\xE3\x81".encode("US-ASCII") }
    assert_equal 'incomplete "\xE3\x81" on UTF-8', e.message
    e = assert_raise(Encoding::InvalidByteSequenceError) { "\xC3A".encode("US-ASCII") }
    assert_equal '"\xC3" followed by "A" on UTF-8', e.message
  end

  def test_scrub
    assert_equal "\uFFFD", "\xE3\x81".scrub
    assert_equal "\uFFFD\uFFFDA\uFFFD\uFFFD", "\xff\xfeA\xC0\x80".scrub
    assert_equal "a?b", "a\xffb".scrub("?")
    assert_equal "<ff>", "\xff".scrub { |bytes| "<#{bytes.unpack1('H*')}>" }
    assert_equal "?", "\xff".force_encoding("US-ASCII").scrub
    assert_equal "\xff".b, "\xff".b.scrub
    s = "x\xff"
    s.scrub!
    assert_equal "x\uFFFD", s
  end

  def test_pack_unpack_and_chr_encodings
    assert_equal Encoding::ASCII_8BIT, [1].pack("C").encoding
    assert_equal Encoding::UTF_8, [233].pack("U*").encoding
    assert_equal "é", [233].pack("U")
    assert_equal Encoding::US_ASCII, ["abc"].pack("m").encoding
    assert_equal Encoding::ASCII_8BIT, "é".unpack("a*")[0].encoding
    assert_equal Encoding::US_ASCII, 65.chr.encoding
    assert_equal Encoding::ASCII_8BIT, 200.chr.encoding
    assert_equal Encoding::UTF_8, 233.chr(Encoding::UTF_8).encoding
    assert_raise(RangeError) { 256.chr }
  end

  def test_inspect
    assert_equal '"é"', "é".inspect
    assert_equal '"\xFF"', "\xff".inspect
    assert_equal '"\xC3\xA9"', "é".b.inspect
    assert_equal '"\u0000\u0001\u007F\e"', "\x00\x01\x7f\e".inspect
    assert_equal '"\x00\xFF"', "\x00\xff".b.inspect
    assert_equal '"a\xFFé"', "a\xffé".inspect
  end

  def test_regexp_on_binary_strings
    assert_equal 0, /./ =~ "é".b
    assert_equal 1, /a/ =~ "\xffa".b
    assert_equal "\xffb".b, "\xffa".b.gsub(/a/, "b")
    assert_equal Encoding::ASCII_8BIT, "\xffa".b.gsub(/a/, "b").encoding
    assert_equal ["\xff".b], "\xffa".b.split("a")
    assert_equal Encoding::ASCII_8BIT, "\xffa".b[/./].encoding
    e = assert_raise(Encoding::CompatibilityError) { /é/ =~ "\xff".b }
    assert_equal "incompatible encoding regexp match (UTF-8 regexp with ASCII-8BIT string)", e.message
  end

  def test_encode_bang_and_substrings_keep_the_encoding
    s = "abc".b
    assert_equal Encoding::ASCII_8BIT, s[0, 2].encoding
    assert_equal Encoding::ASCII_8BIT, s.dup.encoding
    s.encode!("UTF-8")
    assert_equal Encoding::UTF_8, s.encoding
  end

  def test_io_text_reads_are_utf8_and_byte_reads_binary
    r, w = IO.pipe
    w.write "éé\nab"
    w.close
    assert_equal Encoding::ASCII_8BIT, r.read(2).encoding
    assert_equal Encoding::UTF_8, r.gets.encoding
    assert_equal Encoding::ASCII_8BIT, r.readpartial(10).encoding
    r.close
  end

  def test_binmode_and_binread_read_binary
    path = "/tmp/mnrb_string_encoding_#{$$}.txt"
    File.write(path, "é\n")
    assert_equal Encoding::UTF_8, File.read(path).encoding
    assert_equal Encoding::ASCII_8BIT, IO.binread(path).encoding
    File.open(path, "rb") { |f| assert f.binmode?; assert_equal "\xC3\xA9\n".b, f.read }
    File.open(path) { |f| f.binmode; assert_equal Encoding::ASCII_8BIT, f.read.encoding }
  ensure
    File.delete(path) if File.exist?(path)
  end

  def refute_equal(exp, act)
    assert !(exp == act), "expected #{exp.inspect} != #{act.inspect}"
  end
end
