# Regexps over BINARY strings with bytes past 0x7F: every byte is a character, so a search that
# starts on a byte of 0x80-0xBF starts there (it is no UTF-8 continuation byte to back up from),
# and an empty match moves on by one byte. mnrb's search backed up to the byte before: gsub and
# scan matched the same byte again for ever (scan grew its Array until the memory ran out; gsub
# copied a negative length), and match/index with a position found the byte before it.
# The block forms stop a runaway after a few matches, so that a broken build fails instead of hanging.

class RegexpBinarySubjectTest < MnTest::Case
  def bounded_matches(str, re)
    out = []
    str.scan(re) do |m|
      out << m
      raise "runaway scan: #{out.size} matches of #{str.bytesize} bytes" if out.size > str.bytesize + 1
    end
    out
  end

  def test_scan_takes_each_byte_once
    assert_equal ["\xC3".b, "\xA9".b], bounded_matches("\xC3\xA9".b, /./)
    assert_equal ["\xC3".b, "\xA9".b, "\xFF".b], bounded_matches("a\xC3\xA9b\xFF".b, /[^a-z]/)
    assert_equal ["\xC3".b, "\xA9".b], "é".b.scan(/./)
  end

  def test_gsub_with_a_block_replaces_each_byte_once
    seen = []
    out = "\xC3\xA9 x".b.gsub(/[^a-z ]/) do |b|
      seen << b
      raise "runaway gsub" if seen.size > 4
      "<%02X>" % b.getbyte(0)
    end
    assert_equal "<C3><A9> x", out
    assert_equal Encoding::BINARY, out.encoding
  end

  def test_sub_and_gsub_with_strings
    assert_equal "x\xA9".b, "\xC3\xA9".b.sub(/\W/) { "x" }
    assert_equal "-\xC3-\xA9-".b, "\xC3\xA9".b.gsub(//, "-")
    assert_equal "%C3%A9%20", "\xC3\xA9 ".b.gsub(/[^a-z]/) { |b| format("%%%02X", b.getbyte(0)) }
  end

  def test_positions_count_bytes
    s = "\xC3\xA9z".b
    assert_equal "\xA9".b, s.match(/[^a]/, 1)[0]
    assert_equal 1, s.index(/[^a]/, 1)
    assert_equal ["\xC3".b, "\xA9".b, "z"], s.split(//)
    assert_equal 1, s.rindex(/[^z]/)
  end

  def test_strscan_from_a_continuation_byte
    require "strscan"
    sc = StringScanner.new("\xC3\xA9z".b)
    sc.pos = 1
    assert_equal "\xA9".b, sc.scan(/[^a]/)
    assert_equal 2, sc.pos
    assert_equal "z", sc.scan_until(/z/)
  end

  def test_utf8_strings_still_match_by_character
    assert_equal ["é", "z"], "éz".scan(/./)
    assert_equal "<é>z", "éz".sub(/[^z]/) { |c| "<#{c}>" }
    assert_equal 1, "éz".index(/z/)
  end
end
