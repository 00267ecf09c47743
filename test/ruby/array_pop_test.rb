# Array#pop with CRuby's optional count.
class ArrayPopTest < MnTest::Case
  def test_pop_without_a_count_is_the_last_element
    a = [1, 2, 3]
    assert_equal 3, a.pop
    assert_equal [1, 2], a
    assert_nil [].pop
  end

  def test_pop_n_returns_the_last_n_in_order_and_removes_them
    a = [1, 2, 3, 4]
    assert_equal [3, 4], a.pop(2)
    assert_equal [1, 2], a
  end

  def test_pop_more_than_the_size_takes_all
    a = [1, 2]
    assert_equal [1, 2], a.pop(5)
    assert_equal [], a
    assert_equal [], a.pop(1)
  end

  def test_pop_zero_is_an_empty_array
    a = [1]
    assert_equal [], a.pop(0)
    assert_equal [1], a
  end

  def test_negative_count_raises
    e = assert_raise(ArgumentError) { [1, 2].pop(-1) }
    assert_equal "negative array size", e.message
  end

  def test_frozen_raises_even_for_zero
    assert_raise(FrozenError) { [1].freeze.pop }
    assert_raise(FrozenError) { [1].freeze.pop(0) }
  end

  def test_count_is_converted_like_an_integer
    assert_equal [3], [1, 2, 3].pop(1.9)
    assert_raise(TypeError) { [1].pop("1") }
  end

  def test_the_result_is_a_new_array
    a = [1, 2, 3]
    b = a.pop(2)
    b << 9
    assert_equal [1], a
    assert_equal [2, 3, 9], b
  end
end
