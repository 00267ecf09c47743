# Hash#inspect in CRuby 3.4's form, which mnrb follows (its RUBY_VERSION says 3.3):
#   {ok: 3, "a" => 1, 1 => 2, "my key": 5}
# Symbol keys that read back as labels print as `key: value`, other symbols quoted (`"my key": 5`,
# `"+": 1`, `"a=": 1`, `"@x": 1`), every other key as `key.inspect => value`. On CRuby before 3.4
# the old form ({:ok=>3, "a"=>1}) is expected instead, built by `form` from the same pairs.

class HashInspectTest < MnTest::Case
  def new_form? = RUBY_VERSION >= "3.4" || mnrb?

  # The expected inspect of a hash given as [key text in 3.4's form, key.inspect, value text].
  def form(*pairs)
    return "{}" if pairs.empty?
    body = pairs.map do |label, old, value|
      new_form? ? "#{label}#{value}" : "#{old}=>#{value}"
    end
    "{#{body.join(", ")}}"
  end

  def test_empty_hash
    assert_equal "{}", {}.inspect
    assert_equal "{}", {}.to_s
  end

  def test_simple_symbol_keys_are_labels
    assert_equal form(["ok: ", ":ok", "3"], ["A: ", ":A", "1"], ["a?: ", ":a?", "2"], ["b!: ", ":b!", "3"]),
                 { ok: 3, A: 1, a?: 2, b!: 3 }.inspect
  end

  def test_other_keys_use_the_spaced_arrow
    assert_equal form(['"a" => ', '"a"', "1"], ["1 => ", "1", "2"], ["nil => ", "nil", "[]"], ["[1] => ", "[1]", "{}"]),
                 { "a" => 1, 1 => 2, nil => [], [1] => {} }.inspect
  end

  def test_symbols_that_need_quotes
    assert_equal form(['"my key": ', ':"my key"', "5"]), { "my key": 5 }.inspect
    assert_equal form(['"+": ', ":+", "1"], ['"a=": ', ":a=", "2"], ['"@x": ', ":@x", "3"], ['"[]": ', ":[]", "4"],
                      ['"$g": ', ":$g", "5"], ['"<=>": ', ":<=>", "6"], ['"!": ', ":!", "7"]),
                 { :+ => 1, :a= => 2, :@x => 3, :[] => 4, :$g => 5, :<=> => 6, :! => 7 }.inspect
  end

  def test_mixed_keys_in_order
    assert_equal form(["ok: ", ":ok", "3"], ['"a" => ', '"a"', "1"], ["1 => ", "1", "2"], ['"my key": ', ':"my key"', "5"]),
                 { ok: 3, "a" => 1, 1 => 2, "my key": 5 }.inspect
  end

  def test_nested_and_symbol_values
    assert_equal form(["a: ", ":a", form(["b: ", ":b", ":c"])]), { a: { b: :c } }.inspect
    assert_equal "[#{form(["x: ", ":x", "1"])}]", [{ x: 1 }].inspect
  end

  def test_recursive_hash
    h = {}
    h[:self] = h
    assert_equal form(["self: ", ":self", "{...}"]), h.inspect
    k = { 1 => 2 }
    k[k] = 3
    assert_equal form(["1 => ", "1", "2"], ["{...} => ", "{...}", "3"]), k.inspect
  end

  def test_to_s_is_inspect_and_interpolation
    h = { a: 1, "b" => 2 }
    assert_equal h.inspect, h.to_s
    assert_equal "x#{h.inspect}y", "x#{h}y"
  end

  # CRuby raises; mnrb prints the pairs it had when inspect began. Neither may crash.
  def test_inspect_that_changes_the_hash_does_not_crash
    h = { a: 1 }
    o = Object.new
    o.define_singleton_method(:inspect) { 10.times { |i| h[i] = i }; "o" }
    h[:o] = o
    begin
      assert_equal form(["a: ", ":a", "1"], ["o: ", ":o", "o"]), h.inspect
    rescue RuntimeError => e
      assert_equal "can't add a new key into hash during iteration", e.message
    end
  end

  def test_default_value_and_subclass_print_pairs_only
    h = Hash.new(5)
    h[:k] = 1
    assert_equal form(["k: ", ":k", "1"]), h.inspect
    sub = Class.new(Hash)
    s = sub.new
    s["z"] = 1
    assert_equal form(['"z" => ', '"z"', "1"]), s.inspect
  end
end
