# /.../n (Regexp::NOENCODING): a pattern with bytes past 0x7F is a pattern of bytes, ASCII-8BIT,
# matching BINARY (or ASCII) strings, CompatibilityError for other text; an ASCII one is US-ASCII.
# Regexp#encoding and #fixed_encoding?. webrick's httputils.rb builds /([...\x80-\xff])/n.
# Run on CRuby 3.3.8 and 3.1 (patches/mruby/0242).
class RegexpNoencodingTest < MnTest::Case
  def test_options_keep_the_flag
    assert_equal 32, /a/n.options
    assert_equal 32, Regexp.new("a", Regexp::NOENCODING).options
    x = "b"
    assert_equal 32, /a#{x}/n.options
    assert_equal "/a/n", /a/n.inspect
    assert_equal "(?-mix:a)", /a/n.to_s
    assert_equal true, /a/n == /a/
    assert_equal /a/.hash, /a/n.hash
  end

  def test_bytes_pattern_matches_binary_strings
    assert_equal 1, /\xff/n =~ "a\xff".b
    assert_equal 1, /[\x80-\xff]/n.match("x\xc3\xa9".b).begin(0)
    high = (0x80..0xff).map(&:chr).join
    re = /([#{Regexp.escape(high)}])/n
    assert_equal "%C3%A9", "\xc3\xa9".b.gsub(re) { "%%%02X" % $1.ord }
    assert_nil re =~ "plain"
  end

  def test_bytes_pattern_refuses_utf8_text
    e = assert_raise(Encoding::CompatibilityError) { /\xff/n =~ "é" }
    assert_equal "incompatible encoding regexp match (ASCII-8BIT regexp with UTF-8 string)", e.message
  end

  def test_encodings
    assert_equal [Encoding::US_ASCII, Encoding::UTF_8, Encoding::ASCII_8BIT, Encoding::US_ASCII],
                 [/a/.encoding, /é/.encoding, /\xff/n.encoding, /a/n.encoding]
    assert_equal [false, true, true], [/a/.fixed_encoding?, /é/.fixed_encoding?, /\xff/n.fixed_encoding?]
    assert_equal Encoding::ASCII_8BIT, /\xff/n.source.encoding
  end
end
