# Enumerator::Lazy#size as CRuby answers it (lazy_size.rb): the receiver's size through
# Enumerable#lazy, kept by map/collect/zip/with_index, bounded by take/drop, given to Lazy.new;
# nil wherever the chain may change the count (select, flat_map, take_while...). Lazy#filter_map
# is lazy (it was Enumerable's, which ran through the source), Enumerator.new(size) keeps its size.
class LazySizeTest < MnTest::Case
  INF = Float::INFINITY

  def test_size_of_the_receiver
    assert_equal 3, [1, 2, 3].lazy.size
    assert_equal 10, (1..10).lazy.size
    assert_equal INF, (1..INF).lazy.size
    assert_equal 2, { a: 1, b: 2 }.lazy.size
    assert_equal 2, [1, 2, 3].each_slice(2).lazy.size
    assert_equal INF, loop.lazy.size
    assert_nil Enumerator.new { |y| y << 1 }.lazy.size
    assert_equal 3, Enumerator.new(3) { |y| y << 1 }.lazy.size
  end

  def test_steps_that_keep_the_size
    assert_equal 3, [1, 2, 3].lazy.map { _1 }.size
    assert_equal 3, [1, 2, 3].lazy.collect { _1 }.size
    assert_equal INF, (1..INF).lazy.map { _1 }.size
    assert_equal 3, [1, 2, 3].lazy.zip([4]).size
    assert_equal 3, [1, 2, 3].lazy.with_index.size
    assert_equal 3, [1, 2, 3].lazy.each_with_index.size
    assert_equal 3, Enumerator.new(3) { |y| y << 1 }.lazy.map { _1 }.size
  end

  def test_take_and_drop
    assert_equal 2, [1, 2, 3].lazy.take(2).size
    assert_equal 3, [1, 2, 3].lazy.take(5).size
    assert_equal 0, [1, 2, 3].lazy.take(0).size
    assert_equal 2, [1, 2, 3].lazy.drop(1).size
    assert_equal 0, [1, 2, 3].lazy.drop(5).size
    assert_equal 3, (1..INF).lazy.take(3).size
    assert_equal INF, (1..INF).lazy.drop(3).size
    assert_equal 2, [1, 2, 3].lazy.take(2).map { _1 }.size
    assert_nil [1, 2, 3].lazy.select { _1 }.take(2).size
  end

  def test_unknown_sizes_are_nil
    l = [1, 2, 3].lazy
    assert_nil l.select { _1 }.size
    assert_nil l.reject { _1 }.size
    assert_nil l.flat_map { [_1] }.size
    assert_nil l.filter_map { _1 }.size
    assert_nil l.take_while { _1 }.size
    assert_nil l.drop_while { _1 }.size
    assert_nil l.uniq.size
    assert_nil l.grep(Integer).size
  end

  def test_filter_map_is_lazy
    assert_equal [4, 8], (1..INF).lazy.filter_map { _1 * 2 if _1.even? }.first(2)
    assert_raise(ArgumentError) { [1].lazy.filter_map }
  end

  def test_enumerator_new_keeps_its_size
    assert_equal 3, Enumerator.new(3) { |y| y << 1 }.size
    assert_equal 4, Enumerator.new(-> { 4 }) { |y| y << 1 }.size
    assert_nil Enumerator.new { |y| y << 1 }.size
    assert_equal [1], Enumerator.new(3) { |y| y << 1 }.to_a
  end

  def test_lazy_new_takes_a_size
    assert_nil Enumerator::Lazy.new([1, 2]) { |y, v| y << v }.size
    assert_equal 5, Enumerator::Lazy.new([1, 2], 5) { |y, v| y << v }.size
    assert_equal 7, Enumerator::Lazy.new([1, 2], -> { 7 }) { |y, v| y << v }.size
  end

  def test_eager_and_values_are_unchanged
    assert_equal 3, [1, 2, 3].lazy.eager.size
    assert_equal [2, 4], [1, 2, 3].lazy.map { _1 * 2 }.take(2).to_a
    assert_equal [[1, 0], [2, 1]], [1, 2].lazy.with_index.to_a
    l = [1, 2].lazy
    assert_same l, l.lazy
  end
end
