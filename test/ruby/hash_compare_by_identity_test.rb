# Hash#compare_by_identity / #compare_by_identity? as CRuby's (mruby patch 0065): keys match only
# the same object, a String key is kept as given (neither copied nor frozen), the mode survives
# dup, clone, replace and rehash, Hash subclasses have it, a frozen Hash refuses the change.
class HashCompareByIdentityTest < MnTest::Case
  def test_keys_are_compared_by_identity
    h = {}.compare_by_identity
    a = "a"
    b = "a"
    h[a] = 1
    h[b] = 2
    assert_equal 2, h.size
    assert_equal 1, h[a]
    assert_equal 2, h[b]
    assert_nil h["a"]
    assert_equal false, h.key?("a")
    assert_equal true, h.key?(a)
  end

  def test_immediates_and_symbols_still_match
    h = {}.compare_by_identity
    h[1] = :one
    h[:s] = :sym
    h[nil] = :nil
    assert_equal :one, h[1]
    assert_equal :sym, h[:s]
    assert_equal :nil, h[nil]
    assert_nil h[1.0]
  end

  def test_string_keys_are_not_copied_or_frozen
    h = {}.compare_by_identity
    s = +"key"
    h[s] = 1
    assert_same s, h.keys[0]
    assert_equal false, s.frozen?
    plain = {}
    plain[s] = 1
    assert_equal true, plain.keys[0].frozen?
    assert_equal false, plain.keys[0].equal?(s)
  end

  def test_predicate_and_return_value
    h = {}
    assert_equal false, h.compare_by_identity?
    assert_same h, h.compare_by_identity
    assert_equal true, h.compare_by_identity?
    assert_same h, h.compare_by_identity
  end

  def test_existing_entries_are_indexed_again
    a = [1]
    h = { a => :x, "s" => :y }
    h.compare_by_identity
    assert_equal :x, h[a]
    assert_nil h[[1]]
    assert_nil h["s"]
    assert_equal 2, h.size
  end

  def test_dup_clone_and_replace_keep_the_mode
    h = {}.compare_by_identity
    assert_equal true, h.dup.compare_by_identity?
    assert_equal true, h.clone.compare_by_identity?
    r = {}
    r.replace(h)
    assert_equal true, r.compare_by_identity?
    k = "k"
    h[k] = 1
    d = h.dup
    assert_equal 1, d[k]
    assert_nil d["k"]
  end

  def test_rehash_and_clear_keep_the_mode
    k = [1]
    h = { k => 1 }.compare_by_identity
    k << 2
    h.rehash
    assert_equal 1, h[k]
    assert_equal true, h.compare_by_identity?
    h.clear
    assert_equal true, h.compare_by_identity?
  end

  def test_delete_and_many_keys
    h = {}.compare_by_identity
    keys = Array.new(40) { |i| "k#{i % 3}" }
    keys.each_with_index { |k, i| h[k] = i }
    assert_equal 40, h.size
    keys.each_with_index { |k, i| assert_equal i, h[k] }
    assert_equal 5, h.delete(keys[5])
    assert_equal 39, h.size
    assert_nil h[keys[5]]
  end

  def test_rehash_of_a_frozen_hash_raises
    assert_raise(FrozenError) { { a: 1 }.freeze.rehash }
  end

  def test_select_reject_transform_values_slice_keep_the_mode
    k = +"k"
    h = {}.compare_by_identity
    h[k] = 1
    [h.select { true }, h.filter { true }, h.reject { false }, h.transform_values { _1 },
     h.slice(k), h.merge({}), h.except("x")].each do |r|
      assert_equal true, r.compare_by_identity?
      assert_equal 1, r.size
      assert_same k, r.keys[0]
    end
  end

  def test_inspect_is_unchanged
    h = {}.compare_by_identity
    h["a"] = 1
    assert_equal({ "a" => 1 }.inspect, h.inspect)
  end

  def test_subclasses
    sub = Class.new(Hash)
    h = sub.new.compare_by_identity
    assert_equal true, h.compare_by_identity?
    s = "x"
    h[s] = 1
    assert_nil h["x"]
    assert_equal 1, h[s]
    assert_kind_of sub, h
  end

  def test_frozen_hash_raises
    e = assert_raise(FrozenError) { {}.freeze.compare_by_identity }
    assert_equal "can't modify frozen Hash", e.message[0, 24]   # mnrb leaves out the contents
    assert_equal false, {}.freeze.compare_by_identity?
    assert_same h = {}.compare_by_identity.freeze, h.compare_by_identity
  end
end
