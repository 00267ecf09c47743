# Array#fill (mnrb-compat array_fill.c): every argument form of CRuby's, ranges read without
# truncation, extension past the end, and the errors. Expected values are CRuby 3.1's and 3.3's;
# this file passes there too.

class ArrayFillTest < MnTest::Case
  def test_forms_with_a_value
    assert_equal %w[x x x x], [1, 2, 3, 4].fill("x")
    assert_equal [1, 2, 3, "w"], [1, 2, 3, 4].fill("w", -1)
    assert_equal [1, 2, "z", "z"], [1, 2, 3, 4].fill("z", 2, 2)
    assert_equal ["y", "y", 3, 4], [1, 2, 3, 4].fill("y", 0..1)
    assert_equal [:a, :a], [1, 2].fill(:a, -5)
    assert_equal [1, 2], [1, 2].fill(:a, 1, -1)
    assert_equal [:a, 2], [1, 2].fill(:a, nil, 1)
    assert_equal [:a, :a], [1, 2].fill(:a, 0, nil)
    assert_equal [:a, 2], [1, 2].fill(:a, 0...-1)
    assert_equal [1, :a], [1, 2].fill(:a, 1.5)
    assert_equal [:a, :a, 3], [1, 2, 3].fill(:a, ..1)
    assert_equal [:a, :a, :a], [].fill(:a, 0, 3)
  end

  def test_forms_with_a_block
    assert_equal [0, 1, 4, 9], [1, 2, 3, 4].fill { |i| i * i }
    assert_equal [1, 2, 8, 27], [1, 2, 3, 4].fill(-2) { |i| i * i * i }
    assert_equal [1, 10, 20, 4], [1, 2, 3, 4].fill(1, 2) { |i| i * 10 }
    assert_equal [0, 10, 3, 4], [1, 2, 3, 4].fill(0..1) { |i| i * 10 }
  end

  def test_past_the_end
    assert_equal [1, 2, nil, :a, :a], [1, 2].fill(:a, 3, 2)
    assert_equal [1, :a, :a, :a, :a], [1, 2].fill(:a, 1..4)
    assert_equal [1, 2, nil, nil, nil], [1, 2].fill(:a, 5..)
  end

  def test_errors
    e = assert_raise(RangeError) { [1, 2].fill(:a, -5..-1) }
    assert_equal "-5..-1 out of range", e.message
    e = assert_raise(TypeError) { [1, 2].fill(:a, "1") }
    assert_equal "no implicit conversion of String into Integer", e.message
    e = assert_raise(ArgumentError) { [1, 2].fill }
    assert_equal "wrong number of arguments (given 0, expected 1..3)", e.message
    e = assert_raise(ArgumentError) { [1, 2].fill(1, 2, 3, 4) }
    assert_equal "wrong number of arguments (given 4, expected 1..3)", e.message
    e = assert_raise(ArgumentError) { [1, 2].fill(1, 2, 3) { } }
    assert_equal "wrong number of arguments (given 3, expected 0..2)", e.message
    e = assert_raise(FrozenError) { [1, 2].freeze.fill(0) }
    assert_equal "can't modify frozen Array: [1, 2]", e.message
    e = assert_raise(ArgumentError) { [1, 2].fill(:a, 2**62, 2**62) }
    assert_equal "argument too big", e.message
  end

  def test_block_changes_the_array
    x = [1, 2, 3]
    assert_equal [], x.fill { |i| x.clear if i == 1; i }
    y = [1, 2, 3]
    assert_equal :br, y.fill { |i| break :br if i == 1; i }
    assert_equal [0, 2, 3], y
  end

  def test_large
    a = Array.new(50_000).fill(3)
    GC.start
    assert_equal 150_000, a.sum
    a.fill(1, 10_000, 10)
    assert_equal 150_000 - 20, a.sum
  end
end
