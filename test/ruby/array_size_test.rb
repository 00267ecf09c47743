# Arrays hold as many elements as memory allows, as in CRuby: mruby 3.3's build-time cap of 131,072
# elements (MRB_ARY_LENGTH_MAX, "array size too big") is turned off in every mnrb build.

class ArraySizeTest < MnTest::Case
  N = 131_072 + 10

  def test_push_past_the_cap
    a = []
    N.times { |i| a << i }
    assert_equal N, a.size
    assert_equal N - 1, a.last
  end

  def test_new_concat_plus_and_times_past_the_cap
    assert_equal N, Array.new(N, 0).size
    assert_equal 2 * N, (Array.new(N, 1) + Array.new(N, 2)).size
    assert_equal 3 * N, ([7] * (3 * N)).size
    assert_equal 2 * N, Array.new(N, 1).concat(Array.new(N, 2)).size
  end

  def test_a_range_and_a_string_split_past_the_cap
    assert_equal N, (1..N).to_a.size
    assert_equal N, ("x," * N).split(",").size
  end
end
