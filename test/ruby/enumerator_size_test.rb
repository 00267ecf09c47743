# Enumerator#size as CRuby computes it for the built-in iterators (mnrb-compat's
# enumerator_size.rb): the receiver's size where each element is visited once, nil for searches
# that may stop early, the number of slices, Infinity for endless cycles and loop.
class EnumeratorSizeTest < MnTest::Case
  def test_iterators_visiting_each_element_once
    a = [1, 2, 3]
    assert_equal [3, 3, 3, 3, 3, 3], [a.each.size, a.map.size, a.select.size, a.reject.size,
                                      a.each_with_index.size, a.sort_by.size]
    assert_equal 1, { a: 1 }.each.size
    assert_equal 2, "ab".each_char.size
  end

  def test_searches_that_may_stop_early_have_no_size
    a = [1, 2]
    assert_equal [nil, nil, nil, nil, nil], [a.index.size, a.find_index.size, a.find.size,
                                             a.detect.size, a.take_while.size]
  end

  def test_slices
    assert_equal 2, [1, 2, 3].each_slice(2).size
    assert_equal 4, (1..10).each_slice(3).size
    assert_equal 0, [].each_slice(2).size
    assert_equal 2, (1..3).each_cons(2).size
    assert_equal 0, [1].each_cons(3).size
  end

  def test_cycle_and_loop
    assert_equal Float::INFINITY, [1, 2].cycle.size
    assert_equal 6, [1, 2].cycle(3).size
    assert_equal 0, [1, 2].cycle(-1).size
    assert_equal 0, [].cycle.size
    assert_equal Float::INFINITY, loop.size
  end

  def test_integer_iterators
    assert_equal [3, 0, 4, 4], [3.times.size, -1.times.size, 1.upto(4).size, 4.downto(1).size]
    assert_equal [4, 4, 0], [1.step(10, 3).size, 10.step(1, -3).size, 1.step(0).size]
    assert_equal Float::INFINITY, 1.step.size
  end

  def test_a_generator_has_no_size
    assert_nil Enumerator.new { |y| y << 1 }.size
  end
end
