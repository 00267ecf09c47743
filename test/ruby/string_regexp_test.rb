# String and Symbol methods that take a Regexp (CRuby 3.1's String docs): =~ match match? sub gsub
# (replacement strings with \1 \k<name> \0 \&, blocks, hashes) scan split index rindex [] slice
# start_with? partition rpartition, and the $~ each one leaves behind.

class StringRegexpTest < MnTest::Case
  def test_match_operator
    assert_equal 1, "abc" =~ /b/
    assert_nil "abc" =~ /x/
    e = assert_raise(TypeError) { "abc" =~ "b" }
    assert_equal "type mismatch: String given", e.message
    assert_equal "b", $~[0] if "abc" =~ /b/
  end

  def test_match_and_match_p
    m = "abcabc".match(/c/, 3)
    assert_equal 5, m.begin(0)
    assert_equal "b", "abc".match("b.")&.then { |x| x[0][0] }
    assert "abc".match?(/c/)
    refute "abc".match?(/a/, 1)
    assert "a+b".match?("a.b")
    assert_equal "X", "xyz".match(/x/) { |md| md[0].upcase }
  end

  def test_sub_with_replacement_string
    assert_equal "hXllo", "hello".sub(/e/, "X")
    assert_equal "hello", "hello".sub(/z/, "X")
    assert_equal "h<e>llo", "hello".sub(/(e)/, '<\1>')
    assert_equal "h[e]llo", "hello".sub(/e/, '[\0]')
    assert_equal "h[e]llo", "hello".sub(/e/, '[\&]')
    assert_equal "h(h|llo)llo", "hello".sub(/e/, "(\\`|\\')")
    assert_equal "2024/05", "05-2024".sub(/(?<m>\d+)-(?<y>\d+)/, '\k<y>/\k<m>')
    assert_equal "a\\b", "axb".sub(/x/, "\\\\")
    assert_equal "a.b", "a+b".sub("+", ".")
  end

  def test_gsub_with_replacement_string
    assert_equal "h*ll*", "hello".gsub(/[aeiou]/, "*")
    assert_equal "<h><e><l><l><o>", "hello".gsub(/(.)/, '<\1>')
    assert_equal "a-b-c", "a b  c".gsub(/\s+/, "-")
    assert_equal "x.y.z", "x+y+z".gsub("+", ".")
    assert_equal "-a-b-", "ab".gsub(//, "-")
    assert_equal "-a-b-", "ab".gsub(/x*/, "-")
  end

  def test_gsub_with_a_block
    assert_equal "hEllO", "hello".gsub(/[eo]/) { |c| c.upcase }
    seen = []
    "a1b22".gsub(/(\d+)/) { seen << $1; "" }
    assert_equal ["1", "22"], seen
    assert_equal "1-2", "a-b".gsub(/\w/) { $~.begin(0) == 0 ? 1 : 2 }
  end

  def test_gsub_with_a_hash
    assert_equal "h3ll0", "hello".gsub(/[eo]/, "e" => 3, "o" => "0")
    assert_equal "hll", "hello".gsub(/[eo]/, {})
  end

  def test_sub_and_gsub_bang
    s = "hello".dup
    assert_same s, s.sub!(/l/, "L")
    assert_equal "heLlo", s
    assert_nil s.sub!(/z/, "")
    assert_same s, s.gsub!(/[lL]/) { "_" }
    assert_equal "he__o", s
    assert_nil s.gsub!(/z/, "")
  end

  def test_bang_methods_on_a_frozen_string_raise_even_without_a_match
    s = "abc".freeze
    assert_raise(FrozenError) { s.sub!(/x/, "") }
    assert_raise(FrozenError) { s.gsub!(/x/, "") }
    assert_raise(FrozenError) { s.gsub!(/a/) { "" } }
    assert_equal "abc", s
  end

  def test_gsub_without_replacement_or_block_is_an_enumerator
    assert_equal ["l", "l"], "hello".gsub(/l/).to_a
  end

  def test_sub_leaves_last_match
    "hello".sub(/(l+)/, "L")
    assert_equal "ll", $1
    "hello".gsub(/l/, "L")
    assert_equal 3, $~.begin(0)
    "hello".gsub(/z/, "")
    assert_nil $~
  end

  def test_scan
    assert_equal ["a1", "b2"], "a1 b2".scan(/\w\d/)
    assert_equal [["a", "1"], ["b", "2"]], "a1 b2".scan(/(\w)(\d)/)
    assert_equal [["a", nil]], "a".scan(/(a)(x)?/)
    assert_equal ["", "", ""], "ab".scan(//)
    assert_equal ["+", "+"], "1+2+3".scan("+")
    got = []
    r = "a1 b2".scan(/(\w)(\d)/) { |l, d| got << l + d + $2 }
    assert_equal "a1 b2", r
    assert_equal ["a11", "b22"], got
    assert_equal "b2", $~[0]
  end

  def test_split_with_a_regexp
    assert_equal ["a", "b", "c"], "a, b,c".split(/,\s*/)
    assert_equal ["a", "b", "c"], "abc".split(//)
    assert_equal ["a", ",", "b"], "a,b".split(/(,)/)
    assert_equal ["", "a", "b"], " a b".split(/\s*/)
    assert_equal ["a", "b"], "a1b2".split(/\d/)
    assert_equal ["a", "b", ""], "a1b2".split(/\d/, -1)
    assert_equal ["a", "b2"], "a1b2".split(/\d/, 2)
    assert_equal ["a1b2"], "a1b2".split(/\d/, 1)
    assert_equal [], "".split(/,/)
    assert_equal ["a", "b"], "a b".split(" ")   # strings still split as before
    assert_equal ["1", "2"], "1,2".split(",")
  end

  def test_index_and_rindex
    assert_equal 2, "hello".index(/l/)
    assert_equal 3, "hello".index(/l/, 3)
    assert_nil "hello".index(/z/)
    assert_equal 3, "hello".rindex(/l/)
    assert_equal 2, "hello".rindex(/l/, 2)
    assert_equal 0, "hello".rindex(/h/)
    assert_equal 3, "hello".index(/l/, -2)
    assert_equal 1, "hello".index("e")
    assert_equal 4, "hello".rindex("o")
    "hello".index(/(l)/)
    assert_equal "l", $1
  end

  def test_slice_and_aref
    assert_equal "ell", "hello"[/e.l/]
    assert_nil "hello"[/z/]
    assert_equal "l", "hello"[/(e)(l)/, 2]
    assert_equal "e", "hello".slice(/(?<v>[aeiou])/, "v")
    assert_equal "e", "hello"[/(?<v>[aeiou])/, :v]
    assert_equal "h", "hello"[0]
    assert_equal "ell", "hello"[1, 3]
    assert_equal "ll", "hello"["ll"]
  end

  def test_start_with
    assert "hello".start_with?(/h.l/)
    assert_equal "hel", $~[0]
    refute "hello".start_with?(/el/)
    assert "hello".start_with?("x", /h/)
    assert "hello".start_with?("he")
    refute "hello".start_with?("el")
  end

  def test_partition_and_rpartition
    assert_equal ["a", "1", "b2c"], "a1b2c".partition(/\d/)
    assert_equal ["a1b", "2", "c"], "a1b2c".rpartition(/\d/)
    assert_equal ["abc", "", ""], "abc".partition(/\d/)
    assert_equal ["", "", "abc"], "abc".rpartition(/\d/)
    assert_equal ["a", "-", "b-c"], "a-b-c".partition("-")
  end

  def test_symbol_match
    assert_equal 1, :abc =~ /b/
    assert_equal "c", :abc.match(/c/)[0]
    assert :abc.match?(/a/)
  end

  def test_multibyte_text
    assert_equal "n*ïv*", "naïve".gsub(/[aeiouäëïöü]/) { |v| v == "ï" ? "ï" : "*" }
    assert_equal ["日", "本", "語"], "日本語".scan(/./)
    assert_equal ["日", "本", "語"], "日本語".split(//)
    assert_equal "日-本-語", "日本語".gsub(/(?<=.)(?=.)/, "-")
    assert_equal ["ä", "b"], "äxb".split(/x/)
    assert_equal "ÉCOLE", "école".sub(/é/) { "É" }.upcase
  end

  def test_big_text_gsub
    text = "lorem ipsum dolor sit amet " * 20_000
    out = text.gsub(/(\w+) (\w+)/, '\2 \1')
    assert_equal text.size, out.size
    assert out.start_with?("ipsum lorem sit dolor")
  end

  def test_non_pattern_arguments
    assert_raise(TypeError) { "abc".scan(1) }
    assert_raise(TypeError) { "abc".sub(1, "x") }
    e = assert_raise(ArgumentError) { "abc".sub(/a/) }
    assert_equal "wrong number of arguments (given 1, expected 2)", e.message
    e = assert_raise(TypeError) { "abc".gsub(/b/, nil) }
    assert_equal "no implicit conversion of nil into String", e.message
    e = assert_raise(TypeError) { "abc".index(/b/, "x") }
    assert_equal "no implicit conversion of String into Integer", e.message
    e = assert_raise(TypeError) { /a/.match("a", nil) }
    assert_equal "no implicit conversion from nil to integer", e.message
    e = assert_raise(TypeError) { /a/.match(1) }
    assert_equal "no implicit conversion of Integer into String", e.message
    e = assert_raise(TypeError) { Regexp.union("a", 3) }
    assert_equal "no implicit conversion of Integer into String", e.message
  end
end
