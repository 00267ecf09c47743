# max(n) and min(n) on Array, Hash and Range (CRuby 3.1's results; passes there too).

class MaxMinNTest < MnTest::Case
  def test_counts
    assert_equal [3, 2], [1, 3, 2].max(2)
    assert_equal [1, 2], [1, 3, 2].min(2)
    assert_equal [], [].max(1)
    assert_equal [], [1, 2].max(0)
    assert_equal [2, 1], [1, 2].max(5)
    assert_equal [[:b, 2]], { a: 1, b: 2 }.max(1)
    assert_equal [10, 9], (1..10).max(2)
    assert_equal [1, 2, 3], (1..10).min(3)
    assert_equal [1, 2], [1, 2, 3].max(2) { |a, b| b <=> a }
    assert_equal %w[ccc bb], %w[a ccc bb].max(2) { |a, b| a.size <=> b.size }
  end

  def test_without_a_count_unchanged
    assert_equal 3, [1, 3, 2].max
    assert_equal 1, [1, 3, 2].min
    assert_equal 10, (1..10).max
    assert_equal 1, [1, 3].max { |a, b| b <=> a }
  end

  def test_errors
    e = assert_raise(ArgumentError) { [1].max(-1) }
    assert_equal "negative size (-1)", e.message
    e = assert_raise(RangeError) { (1..).max(2) }
    assert_equal "cannot get the maximum of endless range", e.message
    e = assert_raise(TypeError) { [1].max("a") }
    assert_equal "no implicit conversion of String into Integer", e.message
  end
end
