# Struct#each, #each_pair, #select and #filter with and without a block (CRuby: an Enumerator sized
# by the member count when no block is given). Expected values are CRuby 3.1's and 3.3's; this file
# passes there too.

class StructEachTest < MnTest::Case
  Pair = Struct.new(:a, :b)

  def test_each_with_a_block_yields_values_and_returns_self
    s = Pair.new(1, 2)
    got = []
    assert_same s, s.each { |v| got << v }
    assert_equal [1, 2], got
  end

  def test_each_without_a_block_is_a_sized_enumerator
    e = Pair.new(1, 2).each
    assert_kind_of Enumerator, e
    assert_equal 2, e.size
    assert_equal 1, e.next
    assert_equal 2, e.next
    assert_raise(StopIteration) { e.next }
    assert_equal [[1, 0], [2, 1]], Pair.new(1, 2).each.with_index.to_a
  end

  def test_each_pair_yields_name_value_pairs
    s = Pair.new(1, 2)
    got = []
    assert_same s, s.each_pair { |k, v| got << [k, v] }
    assert_equal [[:a, 1], [:b, 2]], got
    one = []
    s.each_pair { |x| one << x }
    assert_equal [[:a, 1], [:b, 2]], one
  end

  def test_each_pair_without_a_block
    e = Pair.new(1, 2).each_pair
    assert_kind_of Enumerator, e
    assert_equal 2, e.size
    assert_equal [[:a, 1], [:b, 2]], e.to_a
    assert_equal({a: 1, b: 2}, Pair.new(1, 2).each_pair.to_h)
  end

  def test_select_and_filter
    s = Struct.new(:a, :b, :c).new(1, 2, 3)
    assert_equal [1, 3], s.select(&:odd?)
    assert_equal [2], s.filter(&:even?)
    e = s.select
    assert_kind_of Enumerator, e
    assert_equal 3, e.size
    assert_equal [2, 3], e.each { |v| v > 1 }
    assert_equal [1], s.filter.with_index { |v, i| i == 0 }
  end

  def test_enumerable_methods_through_each
    s = Pair.new(3, 4)
    assert_equal [6, 8], s.map { |v| v * 2 }
    assert_equal 7, s.sum
    assert_equal [[:a, 3], [:b, 4]], s.each_pair.map { |k, v| [k, v] }
  end
end
