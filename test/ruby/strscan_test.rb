# StringScanner as CRuby's strscan: anchored scanning with Regexps and Strings, the scan pointer in
# bytes (charpos in characters), the last match's groups (numbered and named), pre/post match,
# unscan, concat, inspect and fixed_anchor. Expected values are CRuby 3.1's (this file passes
# there too); where newer strscan differs (captures of a group that did not take part are nil,
# *_until with a String pattern) the test checks the newer behaviour when RUBY_VERSION says so.
require "strscan"

class StrscanTest < MnTest::Case
  def newer_than_3_1? = RUBY_VERSION >= "3.2"

  def test_scan_is_anchored_at_the_pointer_and_advances
    s = StringScanner.new("3.14 is pi")
    assert_equal "3", s.scan(/\d+/)
    assert_nil s.scan(/\d+/)
    assert_equal ".", s.scan(/\./)
    assert_equal "14", s.scan(/\d+/)
    assert_equal 4, s.pos
    assert_equal " is pi", s.rest
    assert_equal 6, s.rest_size
    refute s.eos?
  end

  def test_skip_match_and_check_return_lengths_or_strings_without_advancing_for_the_last_two
    s = StringScanner.new("test string")
    assert_equal 4, s.skip(/\w+/)
    assert_equal 1, s.match?(/\s+/)
    assert_equal 4, s.pos
    assert_equal " ", s.check(/\s+/)
    assert_equal 4, s.pos
    assert_nil s.match?(/\d/)
    assert_nil s.skip(/\d/)
  end

  def test_until_forms_search_ahead
    s = StringScanner.new("Fri Dec 12 1975 14:39")
    assert_equal "Fri Dec 1", s.scan_until(/1/)
    assert_equal "Fri Dec ", s.pre_match
    assert_equal 2, s.skip_until(/ /)
    assert_equal 11, s.pos
    assert_equal "1975", s.check_until(/\d+/)
    assert_equal 11, s.pos
    assert_equal 4, s.exist?(/5/)
    assert_nil s.scan_until(/XYZ/)
    assert_equal 11, s.pos
  end

  def test_string_patterns_match_bytes_at_the_pointer
    s = StringScanner.new("abcabc")
    assert_equal "ab", s.scan("ab")
    assert_nil s.scan("ab")
    assert_equal 1, s.skip("c")
    assert_equal "ab", s.pre_match
    assert_equal "abc", s.post_match
    assert_equal "abc", s.rest
    assert_raise(TypeError) { s.scan(1) }
  end

  def test_until_with_a_string_pattern_on_newer_strscan
    s = StringScanner.new("key = value")
    if newer_than_3_1?
      assert_equal "key =", s.scan_until("=")
      assert_equal 5, s.pos
      assert_equal "=", s.matched
    else
      assert_raise(TypeError) { s.scan_until("=") }
    end
  end

  def test_getch_takes_a_character_and_get_byte_a_byte
    s = StringScanner.new("héllo")
    assert_equal "h", s.getch
    assert_equal "é", s.getch
    assert_equal 3, s.pos
    assert_equal 2, s.charpos
    assert_equal "l", s.get_byte
    assert_equal "l", s.matched
    s.terminate
    assert_nil s.getch
    assert_nil s.get_byte
    b = StringScanner.new("\xC3\xA9".b)
    assert_equal "\xC3".b, b.getch
  end

  def test_peek_does_not_advance
    s = StringScanner.new("test string")
    assert_equal "test st", s.peek(7)
    assert_equal "test string", s.peek(100)
    assert_equal 0, s.pos
    assert_raise(ArgumentError) { s.peek(-1) }
    s.terminate
    assert_equal "", s.peek(3)
  end

  def test_pos_assignment_counts_from_the_end_when_negative_and_checks_range
    s = StringScanner.new("abcdef")
    s.pos = 2
    assert_equal "cdef", s.rest
    s.pos = -1
    assert_equal "f", s.rest
    e = assert_raise(RangeError) { s.pos = 7 }
    assert_equal "index out of range", e.message
    assert_raise(RangeError) { s.pos = -7 }
  end

  def test_reset_terminate_and_unscan
    s = StringScanner.new("abc def")
    s.scan(/abc/)
    s.scan(/ /)
    s.unscan
    assert_equal 3, s.pos
    e = assert_raise(StringScanner::Error) { s.unscan }
    assert_equal "unscan failed: previous match record not exist", e.message
    assert_same StringScanner::Error, ScanError
    s.terminate
    assert s.eos?
    assert_nil s.matched
    s.reset
    assert_equal 0, s.pos
  end

  def test_matched_state
    s = StringScanner.new("test string")
    refute s.matched?
    assert_nil s.matched
    assert_nil s.matched_size
    s.scan(/\w+/)
    assert s.matched?
    assert_equal "test", s.matched
    assert_equal 4, s.matched_size
    s.scan(/\d/)
    refute s.matched?
    assert_nil s.matched
  end

  def test_pre_and_post_match_are_relative_to_the_whole_string
    s = StringScanner.new("a b c")
    s.scan(/a/)
    s.scan(/ /)
    assert_equal "a", s.pre_match
    assert_equal "b c", s.post_match
    s.scan(/x/)
    assert_nil s.pre_match
    assert_nil s.post_match
  end

  def test_groups_by_number_and_name
    s = StringScanner.new("Fri Dec 12 1975 14:39")
    s.scan(/(?<wday>\w+) (?<month>\w+) (?<day>\d+) /)
    assert_equal "Fri Dec 12 ", s[0]
    assert_equal "Fri", s[1]
    assert_equal "12", s[-1]
    assert_nil s[4]
    assert_equal "Dec", s[:month]
    assert_equal "12", s["day"]
    e = assert_raise(IndexError) { s[:year] }
    assert_equal "undefined group name reference: year", e.message
    assert_equal ["Fri", "Dec", "12"], s.captures
    assert_equal 4, s.size
    assert_equal ["Fri", "12", nil], s.values_at(1, 3, 5)
    if newer_than_3_1?   # named_captures: strscan 3.0.2+
      assert_equal({ "wday" => "Fri", "month" => "Dec", "day" => "12" }, s.named_captures)
    end
    s.scan(/nothing/)
    assert_nil s[0]
    assert_nil s.captures
    assert_nil s.values_at(0)
    assert_nil s.size
  end

  def test_a_string_pattern_has_no_named_groups
    s = StringScanner.new("abc")
    s.scan("ab")
    assert_equal "ab", s[0]
    assert_nil s[:x]
  end

  def test_captures_of_groups_that_did_not_take_part
    s = StringScanner.new("a")
    s.scan(/(a)(b)?/)
    assert_equal(newer_than_3_1? ? ["a", nil] : ["a", ""], s.captures)
    assert_nil s[2]
  end

  def test_anchors_see_the_rest_unless_fixed_anchor
    s = StringScanner.new("ab")
    s.pos = 1
    assert_equal "b", s.scan(/\Ab/)
    refute s.fixed_anchor?
    f = StringScanner.new("ab", fixed_anchor: true)
    assert f.fixed_anchor?
    f.pos = 1
    assert_nil f.scan(/\Ab/)
    assert_equal "b", f.scan(/(?<=a)b/)
    g = StringScanner.new("ab")
    g.pos = 1
    assert_nil g.scan(/(?<=a)b/)
  end

  def test_beginning_of_line
    s = StringScanner.new("test\ntest\n")
    assert s.beginning_of_line?
    s.scan(/te/)
    refute s.bol?
    s.scan(/st\n/)
    assert s.beginning_of_line?
  end

  def test_concat_appends_to_the_scanned_string
    str = +"ab"
    s = StringScanner.new(str)
    s.scan(/ab/)
    s << "cd"
    s.concat("ef")
    assert_equal "abcdef", str
    assert_equal "cdef", s.rest
    assert_raise(TypeError) { s << 1 }
  end

  def test_string_assignment_resets
    s = StringScanner.new("abc")
    s.scan(/a/)
    assert_equal "xyz", (s.string = "xyz")
    assert_equal 0, s.pos
    refute s.matched?
    assert_equal "xyz", s.string
  end

  def test_a_shrunk_string_is_read_safely
    str = +"abcdef"
    s = StringScanner.new(str)
    s.scan(/abcd/)
    str.replace("ab")
    assert_nil s.scan(/./)
    assert_nil s.getch
    assert_equal "", s.rest
    assert_equal 0, s.rest_size
    assert s.eos?
  end

  def test_inspect
    s = StringScanner.new("test string here")
    assert_equal '#<StringScanner 0/16 @ "test ...">', s.inspect
    s.scan(/test str/)
    assert_equal '#<StringScanner 8/16 "...t str" @ "ing h...">', s.inspect
    s.terminate
    assert_equal "#<StringScanner fin>", s.inspect
    u = StringScanner.new("héllo")
    u.getch
    u.getch
    assert_equal '#<StringScanner 3/6 "h\xC3\xA9" @ "llo">', u.inspect
    assert_equal "#<StringScanner (uninitialized)>", StringScanner.allocate.inspect
  end

  def test_dup_copies_the_state
    s = StringScanner.new("abc")
    s.scan(/a/)
    d = s.dup
    d.scan(/b/)
    assert_equal 1, s.pos
    assert_equal 2, d.pos
    assert_equal "a", s.matched
  end

  def test_not_a_string_raises_type_error
    assert_raise(TypeError) { StringScanner.new(nil) }
  end

  def test_scan_integer_on_newer_strscan
    return unless StringScanner.method_defined?(:scan_integer)   # strscan 3.1.1 (CRuby 3.4)
    s = StringScanner.new("-42 +7 0x1F ff 123456789012345678901234567890 x")
    assert_equal(-42, s.scan_integer)
    s.skip(/ /)
    assert_equal 7, s.scan_integer
    s.skip(/ /)
    assert_equal 31, s.scan_integer(base: 16)
    assert_equal "0x1F", s.matched
    s.skip(/ /)
    assert_equal 255, s.scan_integer(base: 16)
    s.skip(/ /)
    assert_equal 123456789012345678901234567890, s.scan_integer
    s.skip(/ /)
    assert_nil s.scan_integer
    assert_equal "x", s.rest
    assert_raise(ArgumentError) { s.scan_integer(base: 8) }
  end

  def test_a_tokenizer_loop
    s = StringScanner.new("x = 10 + y1 * (3 - 4)")
    tokens = []
    until s.eos?
      if s.skip(/\s+/) then next
      elsif (t = s.scan(/\d+/)) then tokens << [:int, t.to_i]
      elsif (t = s.scan(/[a-z]\w*/)) then tokens << [:id, t]
      else tokens << [:op, s.getch]
      end
    end
    assert_equal [[:id, "x"], [:op, "="], [:int, 10], [:op, "+"], [:id, "y1"], [:op, "*"], [:op, "("],
                  [:int, 3], [:op, "-"], [:int, 4], [:op, ")"]], tokens
  end
end
