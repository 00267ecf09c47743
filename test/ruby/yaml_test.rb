# require "yaml" / "psych": CRuby 3.3's Psych 5 on libyaml (mrbgems/mnrb-yaml). The DUMPS and LOADS
# tables were written by running the same expressions on CRuby 3.3.8 with psych 5.1.2 (and checked
# on Debian's Ruby 3.1, Psych 4.0.3, which agrees but for the alias errors: it raises BadAlias
# "Unknown alias"). Each row compares bytes: dump text, or load's inspect / "Class: message".
require "yaml"

# top-level, as the tables name them (tags carry the class name)
S = Struct.new(:a, :b)
class Pt
  attr_reader :x, :y
  def initialize(x = nil, y = nil)
    @x = x
    @y = y
  end
end

class YamlTest < MnTest::Case

  # [Ruby expression, YAML.dump of its value on CRuby 3.3.8]
  DUMPS = [
    ["{\"a\" => 1, \"b\" => [1, 2.5, nil, true, false]}", "---\na: 1\nb:\n- 1\n- 2.5\n-\n- true\n- false\n"],
    ["\"plain\"", "--- plain\n"],
    ["\"two\\nlines\"", "--- |-\n  two\n  lines\n"],
    ["\"two\\nlines\\n\"", "--- |\n  two\n  lines\n"],
    ["\"trailing nl\\n\"", "--- 'trailing nl\n\n  '\n"],
    ["\"\"", "--- ''\n"],
    ["\" lead\"", "--- \" lead\"\n"],
    ["\"trail \"", "--- 'trail '\n"],
    ["\"yes\"", "--- 'yes'\n"],
    ["\"no\"", "--- 'no'\n"],
    ["\"y\"", "--- \"y\"\n"],
    ["\"n\"", "--- \"n\"\n"],
    ["\"true\"", "--- 'true'\n"],
    ["\"null\"", "--- 'null'\n"],
    ["\"~\"", "--- \"~\"\n"],
    ["\"123\"", "--- '123'\n"],
    ["\"1.5\"", "--- '1.5'\n"],
    ["\"0x1F\"", "--- '0x1F'\n"],
    ["\"1_000\"", "--- '1_000'\n"],
    ["\"08\"", "--- '08'\n"],
    ["\"019\"", "--- '019'\n"],
    ["\":sym\"", "--- \":sym\"\n"],
    ["\"2024-01-02\"", "--- '2024-01-02'\n"],
    ["\"2024-01-02 10:11:12\"", "--- '2024-01-02 10:11:12'\n"],
    ["\"a: b\"", "--- 'a: b'\n"],
    ["\"- x\"", "--- \"- x\"\n"],
    ["\"#c\"", "--- \"#c\"\n"],
    ["\"<<\"", "--- !!str '<<'\n"],
    ["\"@at\"", "--- \"@at\"\n"],
    ["\"%p\"", "--- \"%p\"\n"],
    ["\"!bang\"", "--- \"!bang\"\n"],
    ["\"&a\"", "--- \"&a\"\n"],
    ["\"*a\"", "--- \"*a\"\n"],
    ["\"a\\\"b\"", "--- a\"b\n"],
    ["\"it's\"", "--- it's\n"],
    ["\"tab\\there\"", "--- \"tab\\there\"\n"],
    ["\"caf\\u00e9\"", "--- café\n"],
    ["\"\\u65e5\\u672c\"", "--- 日本\n"],
    ["\"ctrl\\u0001\"", "--- \"ctrl\\x01\"\n"],
    ["\"x\" * 100", "--- xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"],
    ["(\"word \" * 30).strip", "--- word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word\n"],
    [":sym", "--- :sym\n"],
    [":\"with space\"", "--- :with space\n"],
    [":\"\"", "--- !ruby/symbol\n"],
    ["1", "--- 1\n"],
    ["-7", "--- -7\n"],
    ["2**70", "--- 1180591620717411303424\n"],
    ["1.0", "--- 1.0\n"],
    ["1.5e-9", "--- 1.5e-09\n"],
    ["1e20", "--- 1.0e+20\n"],
    ["Float::INFINITY", "--- .inf\n"],
    ["-Float::INFINITY", "--- -.inf\n"],
    ["Float::NAN", "--- .nan\n"],
    ["nil", "---\n"],
    ["true", "--- true\n"],
    ["[]", "--- []\n"],
    ["{}", "--- {}\n"],
    ["[[1, [2, [3]]], {\"k\" => {\"n\" => {}}}]", "---\n- - 1\n  - - 2\n    - - 3\n- k:\n    \"n\": {}\n"],
    ["{a: 1, \"b\" => :c}", "---\n:a: 1\nb: :c\n"],
    ["{1 => 2, nil => 3, [1] => 4}", "---\n1: 2\n! '': 3\n? - 1\n: 4\n"],
    ["(a = [1]; [a, a])", "---\n- &1\n  - 1\n- *1\n"],
    ["(h = {\"x\" => 1}; {\"p\" => h, \"q\" => h})", "---\np: &1\n  x: 1\nq: *1\n"],
    ["(s = \"str\"; [s, s])", "---\n- str\n- str\n"],
    ["S.new(1, \"two\")", "--- !ruby/struct:S\na: 1\nb: two\n"],
    ["Pt.new(1, [2])", "--- !ruby/object:Pt\nx: 1\ny:\n- 2\n"],
    ["1..3", "--- !ruby/range\nbegin: 1\nend: 3\nexcl: false\n"],
    ["(1...3)", "--- !ruby/range\nbegin: 1\nend: 3\nexcl: true\n"],
    ["/ab+c/i", "--- !ruby/regexp /ab+c/i\n"],
    ["String", "--- !ruby/class 'String'\n"],
    ["Comparable", "--- !ruby/module 'Comparable'\n"],
    ["{\"multi\" => \"line1\\nline2\", \"list\" => [\"a\\nb\"]}", "---\nmulti: |-\n  line1\n  line2\nlist:\n- |-\n  a\n  b\n"],
    ["RuntimeError.new(\"boom\")", "--- !ruby/exception:RuntimeError\nmessage: boom\nbacktrace:\n"],
    ["[\"- dash\", \"? q\", \": c\", \"|\", \">\", \"%\", \"`\"]", "---\n- \"- dash\"\n- \"? q\"\n- \": c\"\n- \"|\"\n- \">\"\n- \"%\"\n- \"`\"\n"],
  ]

  # [YAML text, load, unsafe_load, load(aliases: true)], each an inspect or "Class: message"
  LOADS = [
    ["a: 1\nb: [x, 2.5]\nc: {d: e}\n", "{\"a\"=>1, \"b\"=>[\"x\", 2.5], \"c\"=>{\"d\"=>\"e\"}}", "{\"a\"=>1, \"b\"=>[\"x\", 2.5], \"c\"=>{\"d\"=>\"e\"}}", "{\"a\"=>1, \"b\"=>[\"x\", 2.5], \"c\"=>{\"d\"=>\"e\"}}"],
    ["- 1\n- -2\n- +3\n- 1_000\n- 0x1F\n- 0o17\n- 017\n- 0b101\n- 08\n- 1,000\n- 190:20:30\n", "[1, -2, 3, 1000, 31, \"0o17\", 15, 5, \"08\", 1000, 685230]", "[1, -2, 3, 1000, 31, \"0o17\", 15, 5, \"08\", 1000, 685230]", "[1, -2, 3, 1000, 31, \"0o17\", 15, 5, \"08\", 1000, 685230]"],
    ["- 1.5\n- 1e3\n- 1.0e+3\n- .5\n- -.inf\n- .Inf\n- +.inf\n- 1_0.5\n- 6.8523015e+5\n- 1.\n- .\n", "[1.5, \"1e3\", 1000.0, 0.5, -Infinity, Infinity, Infinity, 10.5, 685230.15, 1.0, \".\"]", "[1.5, \"1e3\", 1000.0, 0.5, -Infinity, Infinity, Infinity, 10.5, 685230.15, 1.0, \".\"]", "[1.5, \"1e3\", 1000.0, 0.5, -Infinity, Infinity, Infinity, 10.5, 685230.15, 1.0, \".\"]"],
    ["- yes\n- No\n- ON\n- off\n- y\n- n\n- true\n- False\n- ~\n- null\n- Null\n- NULL\n-\n- ''\n", "[true, false, true, false, \"y\", \"n\", true, false, nil, nil, nil, nil, nil, \"\"]", "[true, false, true, false, \"y\", \"n\", true, false, nil, nil, nil, nil, nil, \"\"]", "[true, false, true, false, \"y\", \"n\", true, false, nil, nil, nil, nil, nil, \"\"]"],
    ["- :sym\n- :'quoted sym'\n- ':notsym'\n- !ruby/symbol foo\n- !ruby/sym bar\n", "[:sym, :\"quoted sym\", \":notsym\", :foo, :bar]", "[:sym, :\"quoted sym\", \":notsym\", :foo, :bar]", "[:sym, :\"quoted sym\", \":notsym\", :foo, :bar]"],
    ["- 'single'\n- \"dq\\tx\\u00e9\"\n- |\n  lit\n  eral\n- >\n  fol\n  ded\n- |-\n  strip\n- |+\n  keep\n\n", "[\"single\", \"dq\\txé\", \"lit\\neral\\n\", \"fol ded\\n\", \"strip\", \"keep\\n\\n\"]", "[\"single\", \"dq\\txé\", \"lit\\neral\\n\", \"fol ded\\n\", \"strip\", \"keep\\n\\n\"]", "[\"single\", \"dq\\txé\", \"lit\\neral\\n\", \"fol ded\\n\", \"strip\", \"keep\\n\\n\"]"],
    ["a: &x [1, 2]\nb: *x\n", "Psych::AliasesNotEnabled: Alias parsing was not enabled. To enable it, pass `aliases: true` to `Psych::load` or `Psych::safe_load`.", "{\"a\"=>[1, 2], \"b\"=>[1, 2]}", "{\"a\"=>[1, 2], \"b\"=>[1, 2]}"],
    ["base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n", "Psych::AliasesNotEnabled: Alias parsing was not enabled. To enable it, pass `aliases: true` to `Psych::load` or `Psych::safe_load`.", "{\"base\"=>{\"x\"=>1, \"y\"=>2}, \"d\"=>{\"x\"=>1, \"y\"=>3}}", "{\"base\"=>{\"x\"=>1, \"y\"=>2}, \"d\"=>{\"x\"=>1, \"y\"=>3}}"],
    ["- &a {a: 1}\n- &b {b: 2}\n- <<: [*a, *b]\n  c: 3\n", "Psych::AliasesNotEnabled: Alias parsing was not enabled. To enable it, pass `aliases: true` to `Psych::load` or `Psych::safe_load`.", "[{\"a\"=>1}, {\"b\"=>2}, {\"b\"=>2, \"a\"=>1, \"c\"=>3}]", "[{\"a\"=>1}, {\"b\"=>2}, {\"b\"=>2, \"a\"=>1, \"c\"=>3}]"],
    ["--- 1\n--- 2\n", "1", "1", "1"],
    ["", "nil", "false", "nil"],
    ["# only a comment\n", "nil", "false", "nil"],
    ["---\n", "nil", "nil", "nil"],
    ["--- !!str 123\n", "\"123\"", "\"123\"", "\"123\""],
    ["--- !!float 1\n", "1.0", "1.0", "1.0"],
    ["--- !!int \"7\"\n", "7", "7", "7"],
    ["--- !ruby/struct:S\na: 1\nb: two\n", "Psych::DisallowedClass: Tried to load unspecified class: S", "#<struct S a=1, b=\"two\">", "Psych::DisallowedClass: Tried to load unspecified class: S"],
    ["--- !ruby/range 1..3\n", "Psych::DisallowedClass: Tried to load unspecified class: Range", "1..3", "Psych::DisallowedClass: Tried to load unspecified class: Range"],
    ["--- !ruby/regexp /ab+c/i\n", "Psych::DisallowedClass: Tried to load unspecified class: Regexp", "/ab+c/i", "Psych::DisallowedClass: Tried to load unspecified class: Regexp"],
    ["--- !ruby/class String\n", "Psych::DisallowedClass: Tried to load unspecified class: String", "String", "Psych::DisallowedClass: Tried to load unspecified class: String"],
    ["--- !binary aGVsbG8=\n", "\"hello\"", "\"hello\"", "\"hello\""],
    ["--- !ruby/object:Nope {}\n", "Psych::DisallowedClass: Tried to load unspecified class: Nope", "ArgumentError: undefined class/module Nope", "Psych::DisallowedClass: Tried to load unspecified class: Nope"],
    ["key with spaces: value # comment\n'quoted key': 2\n? complex\n: 3\n", "{\"key with spaces\"=>\"value\", \"quoted key\"=>2, \"complex\"=>3}", "{\"key with spaces\"=>\"value\", \"quoted key\"=>2, \"complex\"=>3}", "{\"key with spaces\"=>\"value\", \"quoted key\"=>2, \"complex\"=>3}"],
    ["[1, 2", "Psych::SyntaxError: (<unknown>): did not find expected ',' or ']' while parsing a flow sequence at line 1 column 1", "Psych::SyntaxError: (<unknown>): did not find expected ',' or ']' while parsing a flow sequence at line 1 column 1", "Psych::SyntaxError: (<unknown>): did not find expected ',' or ']' while parsing a flow sequence at line 1 column 1"],
    ["a: b: c\n", "Psych::SyntaxError: (<unknown>): mapping values are not allowed in this context at line 1 column 5", "Psych::SyntaxError: (<unknown>): mapping values are not allowed in this context at line 1 column 5", "Psych::SyntaxError: (<unknown>): mapping values are not allowed in this context at line 1 column 5"],
    ["a:\n  - 1\n - 2\n", "Psych::SyntaxError: (<unknown>): did not find expected key while parsing a block mapping at line 1 column 1", "Psych::SyntaxError: (<unknown>): did not find expected key while parsing a block mapping at line 1 column 1", "Psych::SyntaxError: (<unknown>): did not find expected key while parsing a block mapping at line 1 column 1"],
    ["{a: 1\n", "Psych::SyntaxError: (<unknown>): did not find expected ',' or '}' while parsing a flow mapping at line 1 column 1", "Psych::SyntaxError: (<unknown>): did not find expected ',' or '}' while parsing a flow mapping at line 1 column 1", "Psych::SyntaxError: (<unknown>): did not find expected ',' or '}' while parsing a flow mapping at line 1 column 1"],
    ["a: *nope\n", "Psych::AliasesNotEnabled: Alias parsing was not enabled. To enable it, pass `aliases: true` to `Psych::load` or `Psych::safe_load`.", "Psych::AnchorNotDefined: An alias referenced an unknown anchor: nope", "Psych::AnchorNotDefined: An alias referenced an unknown anchor: nope"],
    ["\xFF\xFE", "Psych::SyntaxError: (<unknown>): invalid leading UTF-8 octet at line 1 column 1", "Psych::SyntaxError: (<unknown>): invalid leading UTF-8 octet at line 1 column 1", "Psych::SyntaxError: (<unknown>): invalid leading UTF-8 octet at line 1 column 1"],
    ["- \"\\q\"\n", "Psych::SyntaxError: (<unknown>): found unknown escape character while parsing a quoted scalar at line 1 column 3", "Psych::SyntaxError: (<unknown>): found unknown escape character while parsing a quoted scalar at line 1 column 3", "Psych::SyntaxError: (<unknown>): found unknown escape character while parsing a quoted scalar at line 1 column 3"],
    ["\t- x\n", "Psych::SyntaxError: (<unknown>): found character that cannot start any token while scanning for the next token at line 1 column 1", "Psych::SyntaxError: (<unknown>): found character that cannot start any token while scanning for the next token at line 1 column 1", "Psych::SyntaxError: (<unknown>): found character that cannot start any token while scanning for the next token at line 1 column 1"],
    ["x: 1\nx: 2\n", "{\"x\"=>2}", "{\"x\"=>2}", "{\"x\"=>2}"],
    ["%YAML 1.1\n---\nfoo\n", "\"foo\"", "\"foo\"", "\"foo\""],
    ["a: 'x\n", "Psych::SyntaxError: (<unknown>): found unexpected end of stream while scanning a quoted scalar at line 1 column 4", "Psych::SyntaxError: (<unknown>): found unexpected end of stream while scanning a quoted scalar at line 1 column 4", "Psych::SyntaxError: (<unknown>): found unexpected end of stream while scanning a quoted scalar at line 1 column 4"],
    ["a: [1, {b: 2}, [3]]\n", "{\"a\"=>[1, {\"b\"=>2}, [3]]}", "{\"a\"=>[1, {\"b\"=>2}, [3]]}", "{\"a\"=>[1, {\"b\"=>2}, [3]]}"],
  ]

  def show
    yield.inspect.gsub(" => ", "=>")     # Hash#inspect as CRuby 3.3 writes it
  rescue Exception => e
    "#{e.class}: #{e.message}"
  end

  def test_dump_matches_cruby
    bad = DUMPS.filter_map do |src, want|
      got = show { YAML.dump(eval(src)) }
      "#{src}: want #{want.inspect}, got #{got}" unless got == want.inspect
    end
    assert bad.empty?, bad.join("\n")
  end

  def test_load_matches_cruby
    bad = []
    LOADS.each do |src, l, u, a|
      [[l, show { YAML.load(src) }, "load"], [u, show { YAML.unsafe_load(src) }, "unsafe_load"],
       [a, show { YAML.load(src, aliases: true) }, "load(aliases: true)"]].each do |want, got, how|
        bad << "#{how} #{src.inspect}: want #{want}, got #{got}" unless want == got
      end
    end
    assert bad.empty?, bad.join("\n")
  end

  def test_safe_load_options
    assert_equal "Psych::DisallowedClass: Tried to load unspecified class: Symbol", show { YAML.safe_load("a: :b") }
    assert_equal({ "a" => :b }, YAML.safe_load("a: :b", permitted_classes: [Symbol]))
    assert_equal "Psych::DisallowedClass: Tried to load unspecified class: Symbol",
                 show { YAML.safe_load("a: :b", permitted_symbols: [:b]) }
    assert_equal "Psych::DisallowedClass: Tried to load unspecified class: Symbol",
                 show { YAML.safe_load("a: :c", permitted_classes: [Symbol], permitted_symbols: [:b]) }
    assert_equal({ a: 1, b: { c: 2 } }, YAML.safe_load("a: 1\nb: {c: 2}", symbolize_names: true))
    assert_equal({ key: "value" }, YAML.load("key: value", symbolize_names: true))
    assert_equal "Psych::DisallowedClass: Tried to load unspecified class: Symbol",
                 show { YAML.safe_load("--- !ruby/struct:S\na: 1\nb: 2\n", permitted_classes: [S]) }
    assert_equal S.new(1, 2), YAML.safe_load("--- !ruby/struct:S\na: 1\nb: 2\n", permitted_classes: [S, Symbol])
    assert_equal Object, YAML.load("--- !ruby/object:Object {}", permitted_classes: [Object]).class
    assert_equal({ "a" => 1 }, YAML.load("a: 1", fallback: 3))
    assert_equal 3, YAML.load("", fallback: 3)
  end

  def test_freeze
    o = YAML.load("a: [x, {b: c}]", freeze: true)
    assert_equal [true, true, true, true], [o.frozen?, o["a"].frozen?, o["a"][0].frozen?, o["a"][1]["b"].frozen?]
    refute YAML.load("a: [x]")["a"].frozen?
  end

  def test_times
    t = YAML.safe_load("t: 2024-01-02 10:11:12.5 Z", permitted_classes: [Time])["t"]
    assert_equal [Time.utc(2024, 1, 2, 10, 11, 12), 500000, true], [Time.at(t.to_i).utc, t.usec, t.utc?]
    t = YAML.unsafe_load("2024-01-02 03:04:05.25 +05:30")   # (CRuby keeps the offset, 19800: mnrb's Time has none)
    assert_equal [1704144845, 250000], [t.to_i, t.usec]
    assert_equal 1704190272, YAML.unsafe_load("2024-01-02 10:11:12").to_i   # no zone: UTC
    assert_equal "--- 2024-01-02 03:04:05.000500000 Z\n", YAML.dump(Time.utc(2024, 1, 2, 3, 4, 5, 500))
    assert_equal Time.utc(2024, 1, 2, 3, 4, 5, 500), YAML.unsafe_load(YAML.dump(Time.utc(2024, 1, 2, 3, 4, 5, 500)))
    assert_equal [45000, 3723.5], YAML.unsafe_load("- 12:30\n- 1:2:3.5")
  end

  def test_streams_and_to_yaml
    assert_equal [1, [2], { "a" => 3 }], YAML.load_stream("--- 1\n--- [2]\n...\n---\na: 3\n")
    assert_equal [], YAML.load_stream("")
    got = []
    YAML.load_stream("--- a\n--- b\n") { |d| got << d }
    assert_equal %w(a b), got
    assert_equal "--- 1\n---\n- 2\n---\na: 3\n", YAML.dump_stream(1, [2], { "a" => 3 })
    assert_equal "---\na:\n- 1\n- 2\n", { "a" => [1, 2] }.to_yaml
    assert_equal "%YAML 1.1\n---\nk: v\n", YAML.dump({ "k" => "v" }, header: true)
    assert YAML.equal?(Psych)
  end

  def test_dump_options
    assert_equal "---\na:\n    b:\n    - 1\n    - 2\n", YAML.dump({ "a" => { "b" => [1, 2] } }, indentation: 4)
    assert_equal "--- 'word word word word word word word word word word word word word word word word word word word " \
                 "word word word word word word word word word word word '\n", YAML.dump("word " * 30, line_width: -1)
    assert_equal "--- \"word word word word\n  word word word word\n  word word \"\n", YAML.dump("word " * 10, line_width: 20)
    assert_equal "---\n-\n- ''\n- \" \"\n- a b\n- 'a  # c'\n- \"#\"\n- \"-\"\n- 1e3\n- 0o17\n- \".5\"\n- \"+1\"\n- 'Yes'\n" \
                 "- 'NO'\n- 'On'\n",
                 YAML.dump([nil, "", " ", "a b", "a  # c", "#", "-", "1e3", "0o17", ".5", "+1", "Yes", "NO", "On"])
  end

  def test_safe_dump
    assert_equal "---\na: 1\n", YAML.safe_dump({ "a" => 1 })
    assert_equal "Psych::DisallowedClass: Tried to dump unspecified class: Symbol(:b)", show { YAML.safe_dump({ "a" => :b }) }
    assert_equal "---\na: :b\n", YAML.safe_dump({ "a" => :b }, permitted_symbols: [:b])
    assert_equal "Psych::DisallowedClass: Tried to dump unspecified class: S", show { YAML.safe_dump(S.new(1, 2)) }
    a = [1]
    assert_equal "Psych::BadAlias: Tried to dump an aliased object", show { YAML.safe_dump([a, a]) }
  end

  def test_round_trips_objects_with_unsafe_load
    s = YAML.unsafe_load(YAML.dump(S.new(1, "two")))
    assert_equal S.new(1, "two"), s
    pt = YAML.unsafe_load(YAML.dump(Pt.new(1, [2, { "k" => :v }])))
    assert_equal [Pt, 1, [2, { "k" => :v }]], [pt.class, pt.x, pt.y]
    a = [1]
    back = YAML.unsafe_load(YAML.dump([a, a]))
    assert_equal [[1], [1]], back
    assert_same back[0], back[1]
    assert_equal [1..3, 1...3, /ab+c/i, String], YAML.unsafe_load(YAML.dump([1..3, 1...3, /ab+c/i, String]))
    assert_equal "\xFF\xFE".b, YAML.load(YAML.dump("\xff\xfe".b))
    assert_equal "--- !binary |-\n  //4=\n", YAML.dump("\xff\xfe".b)
    e = YAML.unsafe_load(YAML.dump(ArgumentError.new("bad")))
    assert_equal [ArgumentError, "bad"], [e.class, e.message]
    f = YAML.unsafe_load(YAML.dump([Float::NAN, Float::INFINITY, -Float::INFINITY, 1.5e-9, 2**70]))
    assert f[0].nan?
    assert_equal [Float::INFINITY, -Float::INFINITY, 1.5e-9, 2**70], f[1..]
  end

  def test_syntax_error_fields
    e = assert_raise(Psych::SyntaxError) { YAML.load("a:\n  b: [1,\n  c: 2\n", filename: "x.yml") }
    assert_equal ["x.yml", 2, 6, 0, "did not find expected ',' or ']'", "while parsing a flow sequence"],
                 [e.file, e.line, e.column, e.offset, e.problem, e.context]
    assert_equal "(conf.yml): did not find expected ',' or ']' while parsing a flow sequence at line 1 column 1",
                 show { YAML.load("[1, 2", filename: "conf.yml") }.sub(/\APsych::SyntaxError: /, "")
    assert_equal [Psych::SyntaxError, Psych::Exception, RuntimeError, StandardError], Psych::SyntaxError.ancestors.take(4)
    assert_equal [Psych::AliasesNotEnabled, Psych::BadAlias, Psych::Exception, RuntimeError],
                 Psych::AliasesNotEnabled.ancestors.take(4)
  end

  def test_files
    path = "/tmp/mnrb-yaml-test-#{$$}.yml"
    File.write(path, "\xEF\xBB\xBFname: app\nports: [80, 443]\nmode: :fast\n")
    assert_equal({ "name" => "app", "ports" => [80, 443], "mode" => :fast }, YAML.load_file(path))
    assert_equal({ name: "app", ports: [80, 443], mode: :fast }, YAML.load_file(path, symbolize_names: true))
    assert_equal "Psych::DisallowedClass: Tried to load unspecified class: Symbol", show { YAML.safe_load_file(path) }
    assert_equal({ "name" => "app", "ports" => [80, 443], "mode" => :fast }, YAML.unsafe_load_file(path))
    File.write(path, "a: [1\n")
    assert_equal "Psych::SyntaxError: (#{path}): did not find expected ',' or ']' while parsing a flow sequence at line 1 column 4",
                 show { YAML.load_file(path) }
    File.write(path, "")
    assert_nil YAML.load_file(path)
  ensure
    File.delete(path) if File.exist?(path)
  end

  # "Billion laughs": nine levels of ten aliases each. Aliases are the anchored object itself, so
  # loading is linear in the text (CRuby's too); without aliases: true it is refused.
  def test_billion_laughs
    text = +"a0: &a0 [lol]\n"
    1.upto(9) { |i| text << "a#{i}: &a#{i} [#{(["*a#{i - 1}"] * 10).join(', ')}]\n" }
    assert_equal "Psych::AliasesNotEnabled: Alias parsing was not enabled. To enable it, pass `aliases: true` to " \
                 "`Psych::load` or `Psych::safe_load`.", show { YAML.load(text) }
    h = YAML.load(text, aliases: true)
    assert h["a9"].size == 10, "a9 has 10 elements"        # (messages that inspect h would not end)
    assert h["a8"].equal?(h["a9"][3]), "an alias is the anchored object"
    assert h["a9"][0][0][0][0][0][0][0][0][0] == ["lol"], "the innermost is a0"
  end

  # Deep nesting: no C recursion in the parser; ToRuby's depth is the VM's (CRuby loads 1,000;
  # 2,000 is past its stack).
  def test_deep_nesting
    assert_equal 1000, depth(YAML.load("[" * 1000 + "]" * 1000))
    bad = "[" * 10_000          # (libyaml checks its simple keys per token: quadratic in the depth)
    assert_equal Psych::SyntaxError, (begin; YAML.load(bad); rescue Psych::SyntaxError, SystemStackError => e; e.class; end)
  end

  def depth(a)
    d = 0
    while a.is_a?(Array)
      d += 1
      a = a[0]
    end
    d
  end

  def test_in_a_ractor
    mnrb_only
    r = Ractor.new do
      require "yaml"
      YAML.dump(YAML.load("a: [1, {b: c}]\ns: :d\n"))
    end
    assert_equal "---\na:\n- 1\n- b: c\ns: :d\n", r.take
  end

  def test_gc_stress_during_load_and_dump
    text = YAML.dump({ "list" => (1..20).map { |i| { "n" => i, "s" => "x#{i}", "f" => i / 3.0 } }, "sym" => :k })
    begin
      GC.stress = true
      back = YAML.load(text)
      again = YAML.dump(back)
    ensure
      GC.stress = false
    end
    assert_equal text, again
    assert_equal 20, back["list"].size
  end
end
