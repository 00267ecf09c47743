# JSON.generate beyond json_test.rb: CRuby's layout options (indent, space, space_before,
# object_nl, array_nl), NaN/Infinity, max_nesting, objects with and without their own to_json.
# mnrb's generator is C (mnrb-stdlib's src/json_generator.c). CRuby 3.1's json 2.6 messages start
# with a source line number (stripped here) and put a line break inside empty containers when
# pretty (json 2.7+ writes {} and [], as mnrb does: checked when RUBY_VERSION is past 3.1).
require "json"

class JSONGenerateTest < MnTest::Case
  def newer_than_3_1? = RUBY_VERSION >= "3.2"

  DOC = { "a" => [1, 2.5, nil, true, false, "x\ny\u0001/\"\\é"], :b => 3, 4 => 1e20, "d" => -2**70, "e" => { "f" => [[1]] } }

  def test_compact
    assert_equal '{"a":[1,2.5,null,true,false,"x\\ny\\u0001/\\"\\\\é"],"b":3,"4":1.0e+20,"d":-1180591620717411303424,' \
                 '"e":{"f":[[1]]}}', JSON.generate(DOC)
  end

  def test_pretty
    assert_equal "{\n  \"b\": 3,\n  \"e\": {\n    \"f\": [\n      [\n        1\n      ]\n    ]\n  }\n}",
                 JSON.pretty_generate({ b: 3, "e" => { "f" => [[1]] } })
  end

  def test_layout_options
    assert_equal "{\n\t\"a\" : [\n\t\t1\n\t]\n}",
                 JSON.generate({ "a" => [1] }, indent: "\t", space: " ", space_before: " ", object_nl: "\n", array_nl: "\n")
    assert_equal "[  1,  [    2]]", JSON.generate([1, [2]], indent: "  ")
  end

  def test_empty_containers_when_pretty
    expected = newer_than_3_1? ? "{\n  \"a\": {},\n  \"b\": []\n}" : "{\n  \"a\": {\n  },\n  \"b\": [\n\n  ]\n}"
    assert_equal expected, JSON.pretty_generate({ "a" => {}, "b" => [] })
  end

  def test_nan_and_infinity
    [0.0 / 0, 1.0 / 0, -1.0 / 0].zip(["NaN", "Infinity", "-Infinity"]).each do |f, name|
      e = assert_raise(JSON::GeneratorError) { JSON.generate([f]) }
      assert_equal "#{name} not allowed in JSON", e.message.sub(/\A\d+: /, "")
      assert_equal "[#{name}]", JSON.generate([f], allow_nan: true)
    end
  end

  def test_max_nesting
    e = assert_raise(JSON::NestingError) { JSON.generate([[[1]]], max_nesting: 2) }
    assert_equal "nesting of 2 is too deep", e.message
    assert_equal "[[[1]]]", JSON.generate([[[1]]], max_nesting: false)
    a = []
    a << a
    e = assert_raise(JSON::NestingError) { JSON.generate(a) }
    assert_equal "nesting of 100 is too deep", e.message
  end

  class Pt
    def initialize(x) = @x = x
    def to_json(*a) = { x: @x }.to_json(*a)
  end

  class Plain
    def to_s = "plain!"
  end

  def test_other_objects
    assert_equal '[{"x":1},"plain!","sym","1..2"]', JSON.generate([Pt.new(1), Plain.new, :sym, 1..2])
    assert_equal ['"é"', "12", "null", "1.5", "18446744073709551616"],
                 ["é".to_json, 12.to_json, nil.to_json, 1.5.to_json, (2**64).to_json]
  end

  class Box
    def initialize(x) = @x = x
    def to_json(*a) = { x: @x, list: [1] }.to_json(*a)
  end

  def test_own_to_json_gets_the_state_so_pretty_layout_continues_inside
    assert_equal "[\n  {\n    \"x\": 1,\n    \"list\": [\n      1\n    ]\n  }\n]", JSON.pretty_generate([Box.new(1)])
    assert_equal '[{"x":2,"list":[1]}]', [Box.new(2)].to_json
    assert_equal "  ", JSON::State.new(indent: "  ").indent
  end

  def test_dump_writes_to_an_io_and_allows_nan
    require "stringio"
    io = StringIO.new(+"")
    assert_same io, JSON.dump({ "a" => [1] }, io)
    assert_equal '{"a":[1]}', io.string
    assert_equal "[NaN]", JSON.dump([0.0 / 0])
    e = assert_raise(ArgumentError) { JSON.dump([[1]], 1) }
    assert_equal "exceed depth limit", e.message
  end

  def test_load
    assert_nil JSON.load(nil)
    assert_nil JSON.load("")
    assert JSON.load("[NaN]")[0].nan?
    seen = []
    assert_equal [1, { "a" => [2] }], JSON.load('[1,{"a":[2]}]', proc { |x| seen << x })
    assert_equal [1, "a", 2, [2], { "a" => [2] }, [1, { "a" => [2] }]], seen
  end

  def test_bytes_that_are_not_utf8_raise
    assert_raise(JSON::GeneratorError) { JSON.generate(["\xff"]) }
    assert_raise(JSON::GeneratorError) { JSON.generate({ "a\xC3" => 1 }) }
    assert_raise(JSON::GeneratorError) { JSON.generate(["\xED\xA0\x80"]) }   # a surrogate
    assert_equal '["é"]', JSON.generate(["é".b])
  end

  def test_keys_become_strings
    assert_equal '{"1":2,"s":3,"nil":4}', JSON.generate({ 1 => 2, s: 3, "nil" => 4 })
  end
end
