# Enumerator.product (3.2): the Cartesian product as an Enumerator::Product (size, inspect, each
# with a block returning nil, rewind). Checked on CRuby 3.3.8 (3.1 has no Enumerator.product).
class EnumeratorProductTest < MnTest::Case
  def supported? = Enumerator.respond_to?(:product) || (assert(RUBY_VERSION < "3.2"); false)

  def test_to_a_and_size
    return unless supported?
    e = Enumerator.product([1, 2], [3, 4])
    assert_equal [[1, 3], [1, 4], [2, 3], [2, 4]], e.to_a
    assert_equal 4, e.size
    assert_equal Float::INFINITY, Enumerator.product([1, 2], 1..).size
    assert_equal [[]], Enumerator.product.to_a
  end

  def test_class_and_inspect
    return unless supported?
    e = Enumerator.product([1, 2], [3])
    assert_equal Enumerator::Product, e.class
    assert e.is_a?(Enumerator)
    assert_equal "#<Enumerator::Product: [[1, 2], [3]]>", e.inspect
    assert_same e, e.rewind
  end

  def test_block_form_returns_nil
    return unless supported?
    seen = []
    assert_nil Enumerator.product([1, 2], [3]) { |x| seen << x }
    assert_equal [[1, 3], [2, 3]], seen
  end

  def test_errors
    return unless supported?
    assert_equal "unknown keyword: :a", assert_raise(ArgumentError) { Enumerator.product([1], a: 2) }.message
    assert_raise(NoMethodError) { Enumerator.product([1, 2], 3).to_a }
  end
end
