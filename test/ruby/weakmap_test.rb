# ObjectSpace::WeakMap (keys by identity; an entry goes when its key or value is collected) and
# ObjectSpace::WeakKeyMap (CRuby 3.3: keys by eql?/hash, only keys weak). Collections are checked
# on many objects made in another method, so a few kept alive by chance (CRuby scans its stack
# conservatively) cannot fail the test. Expected values are CRuby 3.1's where it has the class
# (WeakKeyMap is checked only where it exists).

class WeakmapTest < MnTest::Case
  def test_store_and_fetch_by_identity
    w = ObjectSpace::WeakMap.new
    a = "a"
    b = Object.new
    assert_same 1, (w[a] = 1)
    w[b] = "x"
    assert_equal 1, w[a]
    assert_equal "x", w[b]
    assert_nil w["a"]                  # an equal String is another key
    assert_equal true, w.key?(a)
    assert_equal false, w.include?("a")
    assert_equal true, w.member?(b)
    assert_equal 2, w.size
    assert_equal 2, w.length
  end

  def test_immediates_as_keys_and_values
    w = ObjectSpace::WeakMap.new
    w[1] = :one
    w[:s] = nil
    assert_equal :one, w[1]
    assert_equal true, w.key?(:s)
  end

  def test_replacing_a_value
    w = ObjectSpace::WeakMap.new
    k = Object.new
    w[k] = 1
    w[k] = 2
    assert_equal 2, w[k]
    assert_equal 1, w.size
  end

  def test_iteration
    w = ObjectSpace::WeakMap.new
    k1 = "k1"
    k2 = "k2"
    w[k1] = 1
    w[k2] = 2
    pairs = []
    assert_same w, w.each { |k, v| pairs << [k, v] }
    assert_equal [["k1", 1], ["k2", 2]], pairs.sort
    assert_equal ["k1", "k2"], w.keys.sort
    assert_equal [1, 2], w.values.sort
    ks = []
    w.each_key { |k| ks << k }
    assert_equal ["k1", "k2"], ks.sort
    vs = []
    w.each_value { |v| vs << v }
    assert_equal [1, 2], vs.sort
    ps = []
    w.each_pair { |k, v| ps << [k, v] }
    assert_equal [["k1", 1], ["k2", 2]], ps.sort
    assert_kind_of Enumerable, w
    assert_equal 3, w.sum { |_, v| v }
  end

  def test_inspect_shows_objects_by_address
    w = ObjectSpace::WeakMap.new
    k = "key"
    w[k] = 1
    assert(/\A#<ObjectSpace::WeakMap:0x\h+: #<String:0x\h+> => 1>\z/.match?(w.inspect), w.inspect)
  end

  def test_delete
    return skip("WeakMap#delete is CRuby 3.3") if RUBY_VERSION < "3.3"
    w = ObjectSpace::WeakMap.new
    k = Object.new
    w[k] = 5
    assert_equal 5, w.delete(k)
    assert_nil w.delete(k)
    assert_equal [:missing, k], w.delete(k) { |key| [:missing, key] }
    assert_equal 0, w.size
  end

  def fill_with_garbage(map, n, weak_value)
    n.times do |i|
      if weak_value
        map[i] = Object.new        # the value is garbage
      else
        map["key #{i}"] = i        # the key is garbage
      end
    end
  end

  def test_entries_go_when_their_keys_are_collected
    w = ObjectSpace::WeakMap.new
    kept = "kept"
    w[kept] = :stays
    fill_with_garbage(w, 2000, false)
    GC.start
    assert w.size < 1000, "#{w.size} entries left"
    assert_equal :stays, w[kept]
  end

  def test_entries_go_when_their_values_are_collected
    w = ObjectSpace::WeakMap.new
    fill_with_garbage(w, 2000, true)
    GC.start
    assert w.size < 1000, "#{w.size} entries left"
    assert w.keys.size == w.size
  end

  def test_live_objects_stay_through_collections
    w = ObjectSpace::WeakMap.new
    keys = Array.new(500) { |i| "k#{i}" }
    vals = Array.new(500) { Object.new }
    keys.each_with_index { |k, i| w[k] = vals[i] }
    3.times { GC.start }
    assert_equal 500, w.size
    keys.each_with_index { |k, i| assert_same vals[i], w[k] }
  end

  def test_dup_is_an_empty_map
    w = ObjectSpace::WeakMap.new
    w[1] = 2
    assert_equal 0, w.dup.size
    assert_equal 1, w.size
  end

  def test_weak_key_map
    return skip("WeakKeyMap is CRuby 3.3") unless defined?(ObjectSpace::WeakKeyMap)
    m = ObjectSpace::WeakKeyMap.new
    key = "key"
    m[key] = [1]
    assert_equal [1], m["key"]           # keys compared by eql?
    assert_same key, m.getkey("key")
    assert_equal true, m.key?("key")
    assert_nil m.getkey("other")
    assert(/\A#<ObjectSpace::WeakKeyMap:0x\h+ size=1>\z/.match?(m.inspect), m.inspect)
    assert_equal [1], m.delete("key")
    assert_equal :none, m.delete("key") { :none }
    m[key] = 2
    assert_same m, m.clear
    assert_nil m[key]
  end

  def test_weak_key_map_keys_must_be_collectable
    return skip("WeakKeyMap is CRuby 3.3") unless defined?(ObjectSpace::WeakKeyMap)
    m = ObjectSpace::WeakKeyMap.new
    e = assert_raise(ArgumentError) { m[1] = 2 }
    assert_equal "WeakKeyMap keys must be garbage collectable", e.message
  end

  def fill_key_map(m, n) = n.times { |i| m["key #{i}"] = Object.new }

  def test_weak_key_map_forgets_collected_keys_and_keeps_values_of_live_ones
    return skip("WeakKeyMap is CRuby 3.3") unless defined?(ObjectSpace::WeakKeyMap)
    m = ObjectSpace::WeakKeyMap.new
    kept = "kept"
    m[kept] = Object.new               # referenced only by the map: kept while its key lives
    fill_key_map(m, 2000)
    GC.start
    left = m.inspect[/size=(\d+)/, 1].to_i
    assert left < 1000, "#{left} entries left"
    assert_kind_of Object, m["kept"]
    assert_equal "Object", m["kept"].class.name
  end

  def test_weak_maps_under_gc_stress
    w = ObjectSpace::WeakMap.new
    keys = Array.new(20) { |i| "s#{i}" }
    vals = keys.map(&:upcase)
    begin
      GC.stress = true
      keys.each_with_index { |k, i| w[k] = vals[i] }
      keys.each { |k| w[k] }
    ensure
      GC.stress = false
    end
    assert keys.all? { |k| w.key?(k) }
    assert_equal vals, keys.map { |k| w[k] }
  end
end
