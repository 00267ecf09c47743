# Pattern matching as CRuby has it (mruby patch 0024): case/in with value, variable, array, find,
# hash and alternative patterns, pins, guards, `=> name`, Const(...)/Const[...], ranges, nil,
# deconstruct/deconstruct_keys (and the keys CRuby asks for), `expr => pattern` and `expr in
# pattern`, and the errors: NoMatchingPatternError (NoMatchingPatternKeyError for a missing key)
# whose message for a lone pattern says which check failed, as CRuby 3.1+ words it. Passes on
# CRuby 3.1 too (which warns that find patterns are experimental).

class PatternMatchingTest < MnTest::Case
  Point = Struct.new(:x, :y)

  class Recorder
    attr_reader :asked

    def initialize(hash, array = nil)
      @hash = hash
      @array = array
    end

    def deconstruct_keys(keys)
      (@asked ||= []) << keys
      @hash
    end

    def deconstruct
      (@asked ||= []) << :deconstruct
      @array
    end
  end

  def classify(v)
    case v
    in [] then :empty
    in [x] then [:one, x]
    in [String => s, *] then [:str_first, s]
    in [_, _, *rest] unless rest.empty? then [:many, rest]
    in { type: :circle, r: } then [:circle, r]
    in { type: :rect, w:, h: } then [:rect, w * h]
    in String | Symbol => s then [:text, s]
    in nil then :nil
    in Float | Integer then :number
    else :other
    end
  end

  def test_case_in_picks_the_first_matching_clause
    assert_equal :empty, classify([])
    assert_equal [:one, 1], classify([1])
    assert_equal [:str_first, "s"], classify(["s", 2])
    assert_equal [:many, [3]], classify([1, 2, 3])
    assert_equal :other, classify([1, 2])
    assert_equal [:circle, 2], classify({ type: :circle, r: 2 })
    assert_equal [:rect, 6], classify({ type: :rect, w: 2, h: 3 })
    assert_equal [:text, :x], classify(:x)
    assert_equal [:text, "abc"], classify("abc")
    assert_equal :nil, classify(nil)
    assert_equal :number, classify(1.5)
    assert_equal :other, classify(Object.new)
  end

  def test_value_patterns_use_case_equality
    assert_equal :re, (case "abbb"; in /ab+/ then :re end)
    assert_equal :range, (case 5; in 1..9 then :range end)
    assert_equal :endless, (case 50; in 10.. then :endless end)
    assert_equal :beginless, (case -3; in ..0 then :beginless end)
    assert_equal :exclusive, (case 9; in 1...9 then :no else :exclusive end)
    assert_equal :lambda, (case 7; in ->(x) { x > 5 } then :lambda end)
    assert_equal :sym, (case :a; in :a then :sym end)
    assert_equal :str, (case "lit"; in "lit" then :str end)
    assert_equal :neg, (case -1; in -1 then :neg end)
    assert_equal :bool, (case false; in true | false then :bool end)
  end

  def test_case_in_value_and_bindings
    r = case [1, [2, 3]]
        in [Integer => a, [b, *c]] then [a, b, c]
        end
    assert_equal [1, 2, [3]], r
    assert_nil(case 1; in Integer then end)
    assert_equal [1, 2], (case [1, 2]; in Integer => a, Integer => b then [a, b] end)
    assert_equal [1, [2, 3]], (case [1, 2, 3]; in first, *others then [first, others] end)
  end

  def test_array_patterns_with_splats
    assert_equal [[1, 2], 3], (case [1, 2, 3]; in [*init, last] then [init, last] end)
    assert_equal [1, [], 2], (case [1, 2]; in [a, *mid, b] then [a, mid, b] end)
    assert_equal [1, [2, 3], 4], (case [1, 2, 3, 4]; in [a, *mid, b] then [a, mid, b] end)
    assert_equal :short, (case [1]; in [_, _, *] then :long else :short end)
    assert_equal :trailing_comma, (case [1, 2, 3]; in [1, ] then :trailing_comma end)
    assert_equal :exact, (case [1, 2]; in [1, 2] then :exact end)
    assert_equal :no, (case [1, 2, 3]; in [1, 2] then :yes else :no end)
  end

  def test_find_patterns
    r = case [1, 42, "x", :y]
        in [*pre, String => s, *post] then [pre, s, post]
        end
    assert_equal [[1, 42], "x", [:y]], r
    assert_equal 42, (case [1, 42, 5]; in [*, 40..50 => m, *] then m end)
    assert_equal :none, (case [1, 2, 3]; in [*, 5, *] then :found else :none end)
    assert_equal [[1], [4]], (case [1, 2, 3, 4]; in [*a, 2, 3, *b] then [a, b] end)
  end

  def test_hash_patterns
    r = case { name: "Bob", age: 3, role: { admin: true } }
        in { name: String => name, role: { admin: true }, **rest } then [name, rest]
        end
    assert_equal ["Bob", { age: 3 }], r
    assert_equal 5, (case { a: { b: { c: 5 } } }; in { a: { b: { c: } } } then c end)
    assert_equal 1, (case { "s": 1 }; in { "s": v } then v end)
    assert_equal :braceless, (case { k: 1 }; in k: Integer then :braceless end)
    assert_equal :only_a, (case { a: 1 }; in { a: 1, **nil } then :only_a end)
    assert_equal :extra, (case { a: 1, b: 2 }; in { a: 1, **nil } then :no else :extra end)
    assert_equal :subset, (case { a: 1, b: 2 }; in { a: 1 } then :subset end)
    assert_equal :empty, (case({}); in {} then :empty end)
    assert_equal :not_empty, (case({ a: 1 }); in {} then :empty else :not_empty end)
    assert_equal :missing, (case { a: 1 }; in { b: } then :found else :missing end)
  end

  def test_alternatives_guards_and_as
    assert_equal [:big, 7], (case 7; in Integer | Float => n if n > 5 then [:big, n] end)
    assert_equal :small, (case 3; in Integer | Float => n if n > 5 then :big else :small end)
    assert_equal :unless, (case 3; in Integer unless false then :unless end)
    assert_equal :arr, (case [1]; in [String] | [Integer] then :arr end)
  end

  def test_pins
    x = 5
    assert_equal :same, (case 5; in ^x then :same end)
    assert_equal :other, (case 6; in ^x then :same else :other end)
    assert_equal :dup, (case [1, 1]; in [a, ^a] then :dup end)
    @ivar = 3
    assert_equal :ivar, (case 3; in ^@ivar then :ivar end)
    assert_equal :expr, (case 4; in ^(2 + 2) then :expr end)
  end

  def test_constants_with_brackets_and_parens
    assert_equal [1, 2], (case Point.new(1, 2); in Point[x, y] then [x, y] end)
    assert_equal 1, (case Point.new(1, 2); in Point(x:) then x end)
    assert_equal [1, 2], (case Point.new(1, 2); in { x:, y: } then [x, y] end)
    assert_equal :no, (case [1, 2]; in Point[x, y] then :yes else :no end)
    assert_equal :qualified, (case Point.new(1, 2); in PatternMatchingTest::Point then :qualified end)
  end

  def test_struct_and_data_deconstruct
    assert_equal [1, 2], Point.new(1, 2).deconstruct
    assert_equal({ x: 1 }, Point.new(1, 2).deconstruct_keys([:x]))
    assert_equal({ x: 1, y: 2 }, Point.new(1, 2).deconstruct_keys(nil))
    assert_equal({}, Point.new(1, 2).deconstruct_keys([:x, :y, :z]))
    if defined?(Data) && Data.respond_to?(:define)
      d = Data.define(:w, :h).new(w: 2, h: 3)
      assert_equal 6, (case d; in { w:, h: } then w * h end)
    end
  end

  def test_deconstruct_keys_receives_the_keys_or_nil
    r = Recorder.new({ a: 1, b: 2 })
    case r; in { a: 1, b: 2 } then nil end
    case r; in { a:, **rest } then nil end
    case r; in { a:, ** } then nil end
    case r; in { a:, **nil } then nil else nil end
    case r; in {} then nil else nil end
    assert_equal [[:a, :b], nil, [:a], nil, nil], r.asked
  end

  def test_a_case_value_is_deconstructed_once
    r = Recorder.new({}, [1])
    assert_equal :second, (case r; in [2] then :first; in [3] | [1] then :second; end)
    assert_equal [:deconstruct], r.asked
    inner = Recorder.new({}, [1])
    assert_equal :n, (case [inner]; in [[2]] then :m; in [[1]] then :n; end)
    assert_equal [:deconstruct, :deconstruct], inner.asked
  end

  def test_deconstruct_must_return_array_or_hash
    e = assert_raise(TypeError) { case Recorder.new({}, 1); in [a] then a end }
    assert_equal "deconstruct must return Array", e.message
    e = assert_raise(TypeError) { case Recorder.new(1); in { a: } then a end }
    assert_equal "deconstruct_keys must return Hash", e.message
  end

  def test_an_object_without_deconstruct_does_not_match
    assert_equal :no, (case 1; in [a] then :yes else :no end)
    assert_equal :no, (case 1; in { a: } then :yes else :no end)
  end

  def test_in_returns_true_or_false_and_binds
    assert_equal true, (1 in Integer)
    assert_equal false, (1 in String)
    h = { status: "ok", data: { items: [1, 2] } }
    assert_equal true, (h in { status: "ok", data: { items: [first, *] } })
    assert_equal 1, first
  end

  def test_rightward_pattern_binds
    { a: 1, b: [2, 3] } => { a:, b: [_, c] }
    assert_equal [1, 3], [a, c]
    5 => v
    assert_equal 5, v
    y = nil
    [7].each { |e| e => y }
    assert_equal 7, y
  end

  def lone_error(cls)
    e = assert_raise(cls) { yield }
    assert_equal cls, e.class
    e.message
  end

  def test_rightward_pattern_failures_say_why
    assert_equal "1: String === 1 does not return true", lone_error(NoMatchingPatternError) { 1 => String }
    assert_equal "[1, 2]: [1, 2] length mismatch (given 2, expected 1)",
                 lone_error(NoMatchingPatternError) { [1, 2] => [a] }
    assert_equal "[1]: [1] length mismatch (given 1, expected 2+)",
                 lone_error(NoMatchingPatternError) { [1] => [a, b, *] }
    assert_equal "[1, [2]]: String === 2 does not return true",
                 lone_error(NoMatchingPatternError) { [1, [2]] => [_, [String]] }
    assert_equal "1: 1 does not respond to #deconstruct", lone_error(NoMatchingPatternError) { 1 => [a] }
    assert_equal "1: 1 does not respond to #deconstruct_keys", lone_error(NoMatchingPatternError) { 1 => { a: } }
    assert_equal "[1, 2, 3]: [1, 2, 3] does not match to find pattern",
                 lone_error(NoMatchingPatternError) { [1, 2, 3] => [*, 5, *] }
    assert_equal "#{{ a: 1, b: 2 }.inspect}: rest of #{{ b: 2 }.inspect} is not empty",   # Hash#inspect: 3.4's form on 3.4
                 lone_error(NoMatchingPatternError) { { a: 1, b: 2 } => { a: 1, **nil } }
    assert_equal "#{{ a: 1 }.inspect}: #{{ a: 1 }.inspect} is not empty", lone_error(NoMatchingPatternError) { { a: 1 } => {} }
    x = 5
    assert_equal "6: 5 === 6 does not return true", lone_error(NoMatchingPatternError) { 6 => ^x }
  end

  def test_missing_key_raises_no_matching_pattern_key_error
    e = assert_raise(NoMatchingPatternKeyError) { { a: 1 } => { b: } }
    assert_equal "#{{ a: 1 }.inspect}: key not found: :b", e.message
    assert_equal :b, e.key
    assert_equal({ a: 1 }, e.matchee)
    assert_kind_of NoMatchingPatternError, e
  end

  def test_case_in_without_else_raises
    assert_equal "5: String === 5 does not return true",
                 lone_error(NoMatchingPatternError) { case 5; in String then 1 end }
    assert_equal "5: guard clause does not return true",
                 lone_error(NoMatchingPatternError) { case 5; in Integer => n if n < 0 then 1 end }
    assert_equal "5", lone_error(NoMatchingPatternError) { case 5; in String then 1; in Symbol then 2 end }
    assert_equal "[1, 2]", lone_error(NoMatchingPatternError) { case [1, 2]; in [] then 1; in [_] then 2 end }
  end

  def test_exception_classes
    assert_equal StandardError, NoMatchingPatternError.superclass
    assert_equal NoMatchingPatternError, NoMatchingPatternKeyError.superclass
    e = NoMatchingPatternKeyError.new("m", key: 1, matchee: 2)
    assert_equal [1, 2, "m"], [e.key, e.matchee, e.message]
    e = assert_raise(ArgumentError) { NoMatchingPatternKeyError.new("m").key }
    assert_equal "no key is available", e.message
  end

  def test_patterns_over_several_lines
    h = { name: "x", n: 2 }
    r = case h
        in name: String => nm, n:
          [nm, n]
        end
    assert_equal ["x", 2], r
    r = case [1, 2]
        in [
          Integer => a,
          Integer
        ]
          a
        end
    assert_equal 1, r
    r = case { a: 1 }
        in {
          a: Integer => v
        }
          v
        end
    assert_equal 1, r
    h => n:
    assert_equal 2, n
  end

  def syntax_error(code)
    e = assert_raise(SyntaxError) { eval(code) }
    e.message
  end

  def test_syntax_errors_as_cruby
    assert_include syntax_error("case 1; in [a, a] then 1; end"), "duplicated variable name"
    assert_include syntax_error("case 1; in a | 1 then 1; end"), "illegal variable in alternative pattern (a)"
    assert_include syntax_error("case 1; in [*r] | [1] then 1; end"), "illegal variable in alternative pattern (r)"
    assert_include syntax_error("case 1; in {k:} | 2 then 1; end"), "illegal variable in alternative pattern (k)"
    assert_include syntax_error("case 1; in ^undefined_here then 1; end"), "undefined_here: no such local variable"
    assert_equal :ok, eval("case [1, 1]; in [_a, _a] | [_b] then :ok; end")
  end

  def test_bindings_inside_blocks_reach_outer_locals
    res = nil
    [[1, 2]].each { |v| case v; in [a, b] then res = a + b end }
    assert_equal 3, res
    out = nil
    [3].each { |v| v => out }
    assert_equal 3, out
  end
end
