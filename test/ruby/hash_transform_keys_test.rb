# Hash#transform_keys/#transform_keys! with a mapping Hash, and Enumerator::Lazy#eager (CRuby 3.1's
# results; this file passes there too).

class HashTransformKeysTest < MnTest::Case
  def test_mapping
    h = { a: 1, b: 2 }
    assert_equal({ x: 1, b: 2 }, h.transform_keys({ a: :x }))
    assert_equal({ x: 1, "b" => 2 }, h.transform_keys({ a: :x }) { |k| k.to_s })
    assert_equal({ b: 2 }, h.transform_keys(a: :b))
    assert_equal({ "a" => 1, "b" => 2 }, h.transform_keys(&:to_s))
    assert_kind_of Enumerator, h.transform_keys
    assert_equal({ a: 1, b: 2 }, h)
    e = assert_raise(TypeError) { h.transform_keys(1) }
    assert_equal "no implicit conversion of Integer into Hash", e.message
  end

  def test_mapping_in_place
    g = { a: 1, b: 2 }
    assert_same g, g.transform_keys!(a: :b, b: :a)
    assert_equal({ b: 1, a: 2 }, g)
    g = { a: 1, b: 2 }
    g.transform_keys!({ a: :b })
    assert_equal({ b: 2 }, g)
  end

  def test_lazy_eager
    e = [1, 2].lazy.map { |x| x * 2 }.eager
    assert_kind_of Enumerator, e
    refute e.is_a?(Enumerator::Lazy)
    assert_equal [2, 4], e.to_a
    assert_equal [4], e.select { |x| x > 2 }
    assert_equal [2, 4], (1..).lazy.map { |x| x * 2 }.eager.first(2)
  end
end
