# Enumerator::Lazy#zip as CRuby's (mnrb-compat lazy_zip.rb).
class LazyZipTest < MnTest::Case
  def test_with_arrays
    assert_equal [[1, 3], [2, 4]], [1, 2].lazy.zip([3, 4]).to_a
    assert_equal [[2, 7], [4, nil], [6, nil]], [1, 2, 3].lazy.map { |x| x * 2 }.zip([7]).to_a
  end

  def test_with_an_endless_receiver_and_ranges
    assert_equal [[1, 10, :a], [2, 11, nil], [3, 12, nil], [4, nil, nil]],
                 (1..Float::INFINITY).lazy.zip(10..12, [:a]).first(4)
  end

  def test_it_stays_lazy
    assert_kind_of Enumerator::Lazy, [1].lazy.zip([2])
    seen = []
    (1..Float::INFINITY).lazy.map { |x| seen << x; x }.zip([0]).first(2)
    assert_equal [1, 2], seen
  end

  def test_with_a_block_it_yields_each_tuple_and_returns_nil
    r = []
    assert_nil [1, 2].lazy.zip([3, 4]) { |t| r << t }
    assert_equal [[1, 3], [2, 4]], r
  end

  def test_an_argument_without_each_raises
    e = assert_raise(TypeError) { [1].lazy.zip(5) }
    assert_equal "wrong argument type Integer (must respond to :each)", e.message
  end
end
