# Numeric#step (positional and by:/to: forms), Range#step and Range#% as CRuby's; Float steps reach the
# limit without accumulating error (CRuby computes begin + i * step). Expected values are CRuby 3.1's.
class NumericStepTest < MnTest::Case
  def test_integer_steps
    assert_equal [10, 7, 4, 1], 10.step(1, -3).to_a
    assert_equal [1, 3, 5], 1.step(by: 2, to: 5).to_a
    assert_equal [1, 2, 3], 1.step(3).to_a
    assert_equal [1, 2, 3], 1.step.first(3)
    assert_equal [], 5.step(1).to_a
  end

  def test_float_steps_do_not_accumulate_error
    assert_equal [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7000000000000002, 1.8, 1.9, 2.0], 1.0.step(2.0, 0.1).to_a
    assert_equal [2.0, 1.75, 1.5, 1.25, 1.0], 2.0.step(1.0, -0.25).to_a
    assert_equal [1.0, 1.5, 2.0], 1.0.step(by: 0.5).first(3)
    assert_equal [1.0, 1.5, 2.0], 1.step(2, 0.5).to_a
  end

  def test_range_step_and_percent
    assert_equal [1.0, 1.5, 2.0], (1..2).step(0.5).to_a
    assert_equal [1.0, 1.5], (1...2).step(0.5).to_a
    assert_equal [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7000000000000002, 1.8, 1.9], (1.0...2.0).step(0.1).to_a
    assert_equal [0.0, 0.25, 0.5, 0.75], (0.0...1.0).step(0.25).to_a
    assert_equal ["a", "c", "e"], ("a".."e").step(2).to_a
    assert_equal [1, 4, 7, 10], ((1..10) % 3).to_a
    assert_equal [1, 6, 11], (1..).step(5).first(3)
    seen = []
    assert_equal (1..5), (1..5).step(2) { |i| seen << i }
    assert_equal [1, 3, 5], seen
  end

  def test_errors
    e = assert_raise(ArgumentError) { 1.step(10, 2, by: 3) }
    assert_equal "step is given twice", e.message
    e = assert_raise(ArgumentError) { 1.step(10, 0) {} }
    assert_equal "step can't be 0", e.message
    e = assert_raise(ArgumentError) { ("a".."c").step(0).to_a }
    assert_equal "step can't be 0", e.message
  end
end
