# require "json" (mnrb-stdlib's lib/json.rb, loaded at require): CRuby's common calls. Expected
# values are CRuby 3.1's (json 2.6), except where the file says mnrb differs.
require "json"

class JSONTest < MnTest::Case
  def test_generate_scalars_and_containers
    assert_equal '{"a":[1,2.5,null,true,false,"x\ny\u0001/"],"b":{},"c":[]}',
                 JSON.generate({ "a" => [1, 2.5, nil, true, false, "x\ny\u0001/"], :b => {}, "c" => [] })
    assert_equal ['1.5', 'null', '"a\"b"', '"s"', '[1,"a"]', '{"a":1}', "-3", "100.0"],
                 [1.5.to_json, nil.to_json, "a\"b".to_json, :s.to_json, [1, "a"].to_json, { a: 1 }.to_json,
                  JSON.generate(-3), JSON.generate(100.0)]
    assert_equal "[1]", JSON.dump([1])
    assert_equal "\"\u00e9\"", JSON.generate("\u00e9")
  end

  def test_pretty_generate
    assert_equal "{\n  \"a\": [\n    1,\n    {\n      \"k\": \"v\"\n    }\n  ],\n  \"b\": 2\n}",
                 JSON.pretty_generate({ "a" => [1, { "k" => "v" }], "b" => 2 })
  end

  def test_parse
    assert_equal [1, 2.0, 1000.0, 0, { "a" => [true, false, nil] }],
                 JSON.parse('[1, 2.0, 1e3, -0, {"a": [true, false, null]}]')
    assert_equal ["\u00e9", "\u{1F600}", "ax", "a/\t"], JSON.parse('["\\u00e9", "\\ud83d\\ude00", "a\\x", "a\\/\\t"]')
    assert_equal [2, "s"], [JSON.parse("2"), JSON.parse(' "s" ')]
    assert_equal({ a: 1, b: { c: [1] } }, JSON.parse('{"a":1, "b": {"c": [1]}}', symbolize_names: true))
    doc = { "nested" => [{ "deep" => [1, 2, { "x" => nil }] }], "s" => "q\"uote\\" }
    assert_equal doc, JSON.parse(JSON.generate(doc))
    assert_equal doc, JSON.parse(JSON.pretty_generate(doc))
  end

  def test_bignums_round_trip
    doc = [2**70, -(2**64), 2**63, { "n" => 10**30 }]
    text = '[1180591620717411303424,-18446744073709551616,9223372036854775808,{"n":1000000000000000000000000000000}]'
    assert_equal text, JSON.generate(doc)
    assert_equal doc, JSON.parse(text)
    assert_equal [123456789012345678901234567890], JSON.parse("[123456789012345678901234567890]")
    assert_equal "1267650600228229401496703205376", (2**100).to_json
    assert_equal({ "big" => -(3**60) }, JSON.parse(JSON.pretty_generate({ "big" => -(3**60) })))
  end

  def test_errors
    ['{"a": }', "", "[1,]", '{"a" 1}', "[1 2]", "tru", '"abc', "01", "[1] x"].each do |bad|
      e = assert_raise(JSON::ParserError) { JSON.parse(bad) }
      assert e.message.include?("unexpected token"), "#{bad}: #{e.message}"
    end
    e = assert_raise(JSON::GeneratorError) { JSON.generate([0.0 / 0]) }
    assert e.message.include?("NaN not allowed in JSON"), e.message
    assert_raise(JSON::NestingError) { JSON.parse("[" * 101 + "]" * 101) }
    assert_equal [], JSON.parse("[" * 100 + "]" * 100).flatten
    assert_equal [JSON::ParserError, JSON::JSONError, StandardError], JSON::NestingError.ancestors[1, 3]
  end

  class Point
    def initialize(x)
      @x = x
    end

    def to_json(*args)
      { x: @x }.to_json(*args)
    end
  end

  def test_objects_with_their_own_to_json
    assert_equal '[{"x":1}]', JSON.generate([Point.new(1)])
  end

  def test_in_a_ractor
    mnrb_only   # CRuby 3.1 cannot require in a non-main ractor
    got = Ractor.new { require "json"; JSON.parse(JSON.generate({ "n" => [1, 2] }))["n"].sum }.take
    assert_equal 3, got
  end
end
