# KeyError's receiver: and key: (CRuby 2.6+), and the KeyError of Hash#fetch and ENV.fetch: CRuby's
# message "key not found: :a", naming the receiver and the key. Expected values are CRuby 3.1's and
# 3.3's; this file passes there too.

class KeyErrorTest < MnTest::Case
  def test_new_with_receiver_and_key
    e = KeyError.new("m", receiver: [1], key: :k)
    assert_equal "m", e.message
    assert_equal [1], e.receiver
    assert_equal :k, e.key
    e = KeyError.new(receiver: 1, key: nil)
    assert_equal "KeyError", e.message
    assert_nil e.key
  end

  def test_without_them
    e = KeyError.new("m")
    x = assert_raise(ArgumentError) { e.key }
    assert_equal "no key is available", x.message
    x = assert_raise(ArgumentError) { e.receiver }
    assert_equal "no receiver is available", x.message
  end

  def test_hash_fetch
    h = {a: 1, n: nil}
    assert_equal 1, h.fetch(:a)
    assert_nil h.fetch(:n)
    assert_equal 2, h.fetch(:b, 2)
    assert_equal "b!", h.fetch("b") { |k| "#{k}!" }
    e = assert_raise(KeyError) { h.fetch(:zz) }
    assert_equal "key not found: :zz", e.message
    assert_equal :zz, e.key
    assert_same h, e.receiver
    e = assert_raise(KeyError) { {}.fetch("s") }
    assert_equal "key not found: \"s\"", e.message
    e = assert_raise(ArgumentError) { h.fetch }
    assert_equal "wrong number of arguments (given 0, expected 1..2)", e.message
    e = assert_raise(ArgumentError) { h.fetch(1, 2, 3) }
    assert_equal "wrong number of arguments (given 3, expected 1..2)", e.message
  end

  def test_env_fetch
    name = "MNRB_KEY_ERROR_TEST_UNSET"
    e = assert_raise(KeyError) { ENV.fetch(name) }
    assert_equal "key not found: \"#{name}\"", e.message
    assert_equal name, e.key
    assert_same ENV, e.receiver
  end

  def test_comparable_messages
    e = assert_raise(ArgumentError) { "x" > 0 }
    assert_equal "comparison of String with 0 failed", e.message
    e = assert_raise(ArgumentError) { "x".between?(1, 2) }
    assert_equal "comparison of String with 1 failed", e.message
    e = assert_raise(ArgumentError) { :a >= 1.5 }
    assert_equal "comparison of Symbol with 1.5 failed", e.message
    e = assert_raise(ArgumentError) { "x" <= nil }
    assert_equal "comparison of String with nil failed", e.message
    e = assert_raise(ArgumentError) { "x" < [1] }
    assert_equal "comparison of String with Array failed", e.message
    assert_equal [true, false, true, true], ["a" < "b", "a" > "b", "a" <= "a", 2.between?(1, 3)]
  end
end
