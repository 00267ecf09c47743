# JSON.parse beyond json_test.rb: the options and corner cases of CRuby's parser (json 2.6 on CRuby
# 3.1, whose messages start with a source line number that newer json dropped: stripped here).
# mnrb's parser is C (mnrb-stdlib's src/json_parser.c).
require "json"

class JSONParseTest < MnTest::Case
  def message(src, **opts)
    e = assert_raise(JSON::ParserError) { JSON.parse(src, **opts) }
    e.message.sub(/\A\d+: /, "")
  end

  def test_numbers_keep_their_exact_value
    assert_equal [0, -0.0, 0.1, 2.5e-3, 1500.0, Float::INFINITY], JSON.parse("[-0, -0.0, 0.1, 2.5e-3, 1.5E+3, 1e400]")
    assert_equal 12345678901234567890, JSON.parse("12345678901234567890")
    assert_equal(-9223372036854775808, JSON.parse("-9223372036854775808"))
    assert_equal [10**36, -(10**36 + 7), 123456789012345678901234567890123456789],
                 JSON.parse("[1#{"0" * 36}, -1#{"0" * 35}7, 123456789012345678901234567890123456789]")
    assert_equal 0.1 + 0.2, JSON.parse("0.30000000000000004")
    assert_equal 5e-324, JSON.parse("5e-324")
  end

  def test_malformed_numbers
    assert_equal "unexpected token at '01'", message("01")
    assert_equal "unexpected token at '.'", message("1.")
    assert_equal "unexpected token at '.5'", message(".5")
    assert_equal "unexpected token at 'e]'", message("[1e]")
    assert_equal "unexpected token at '-'", message("-")
  end

  def test_nan_and_infinity_only_with_allow_nan
    assert_equal "unexpected token at 'NaN'", message("NaN")
    assert_equal "unexpected token at '-Infinity]'", message("[-Infinity]")
    r = JSON.parse("[NaN, Infinity, -Infinity]", allow_nan: true)
    assert r[0].nan?
    assert_equal [Float::INFINITY, -Float::INFINITY], r[1, 2]
  end

  def test_strings
    assert_equal ["x", "é\u0000", "\u{1F600}", "a\"b\\/"], JSON.parse('["\\x", "\\u00e9\\u0000", "\\ud83d\\ude00", "a\\"b\\\\\\/"]')
    assert_equal Encoding::UTF_8, JSON.parse('"a"').encoding
    assert_equal Encoding::UTF_8, JSON.parse('["é"]'.b)[0].encoding
    assert_equal "unexpected token at '\"a\tb\"]'", message("[\"a\tb\"]")
    assert_equal "unexpected token at '\"abc'", message('"abc')
    assert_equal "unexpected token at '\"\\u12\"'", message('"\\u12"')
  end

  def test_comments_are_whitespace
    assert_equal [1, 2], JSON.parse("[1, // one\n 2 /* two */]")
    assert_equal({ "a" => 1 }, JSON.parse("/* lead */ {\"a\" /* k */ : 1} // tail\n"))
  end

  def test_structure_errors
    assert_equal "unexpected token at ''", message("")
    assert_equal "unexpected token at ''", message("  ")
    assert_equal "unexpected token at ']'", message("[1,]")
    assert_equal "unexpected token at '{\"a\":1,}'", message('{"a":1,}')
    assert_equal "unexpected token at '{\"a\" 1}'", message('{"a" 1}')
    assert_equal "unexpected token at 'x'", message("[1] x")
    assert_equal "unexpected token at ''", message("[")
    assert_equal "unexpected token at 'tru'", message("tru")
  end

  def test_duplicate_keys_keep_the_last
    assert_equal({ "a" => 2 }, JSON.parse('{"a":1,"a":2}'))
  end

  def test_symbolize_names
    assert_equal({ a: [{ b: 1 }] }, JSON.parse('{"a":[{"b":1}]}', symbolize_names: true))
  end

  def test_object_and_array_classes
    ordered = Class.new(Hash)
    list = Class.new(Array)
    r = JSON.parse('{"a":[1,{"b":2}]}', object_class: ordered, array_class: list)
    assert_equal ordered, r.class
    assert_equal list, r["a"].class
    assert_equal ordered, r["a"][1].class
    assert_equal({ "a" => [1, { "b" => 2 }] }, r)
  end

  def test_max_nesting
    e = assert_raise(JSON::NestingError) { JSON.parse("[[[1]]]", max_nesting: 2) }
    assert_equal "nesting of 3 is too deep", e.message
    assert_equal [[[1]]], JSON.parse("[[[1]]]", max_nesting: false)
    assert_equal 1, JSON.parse("[" * 1000 + "1" + "]" * 1000, max_nesting: false).flatten[0]
  end

  def test_freeze
    r = JSON.parse('["a", {"b": ["c"]}]', freeze: true)
    assert r.frozen?
    assert r[0].frozen?
    assert r[1]["b"][0].frozen?
    refute JSON.parse('["a"]')[0].frozen?
  end

  class Created
    attr_reader :v
    def initialize(v) = @v = v
    def self.json_creatable? = true
    def self.json_create(h) = new(h["v"])
  end

  def test_create_additions_only_when_asked
    src = '{"json_class":"JSONParseTest::Created","v":3}'
    assert_equal({ "json_class" => "JSONParseTest::Created", "v" => 3 }, JSON.parse(src))
    assert_equal 3, JSON.parse(src, create_additions: true).v
  end

  def test_source_is_converted_and_checked
    assert_raise(TypeError) { JSON.parse(nil) }
    assert_raise(TypeError) { JSON.parse(1) }
    s = Object.new
    def s.to_str = "[7]"
    assert_equal [7], JSON.parse(s)
  end

  def test_a_changing_source_does_not_disturb_the_parse
    mnrb_only   # CRuby 3.1 reads the changed buffer and fails; mnrb parses the bytes it was given
    src = +'[1, "two", 3]'
    klass = Class.new(Array) { define_method(:<<) { |v| src.replace("x" * 100); super(v) } }
    assert_equal [1, "two", 3], JSON.parse(src, array_class: klass).to_a
  end

  def test_random_damage_raises_parser_errors_only
    srand(7)
    doc = JSON.generate({ "a" => [1, -2.5e3, "s\u00e9\n", nil, true, { "b" => [2**70] }], "c" => "" })
    500.times do
      bad = doc.b
      2.times { bad.setbyte(rand(bad.bytesize), rand(256)) }
      begin
        JSON.parse(bad)
      rescue JSON::ParserError
      end
    end
    assert_equal doc, JSON.generate(JSON.parse(doc))
  end
end
