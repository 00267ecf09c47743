# Enumerable#chunk, chunk_while, slice_when, slice_before, slice_after, grep_v, each_entry,
# compact, chain and Enumerator#+, Array#sort_by! and #to_ary, with CRuby 3.1's results, errors
# and enumerators (this file passes on CRuby 3.1 too).

class EnumSliceTest < MnTest::Case
  def test_chunk_groups_runs_of_equal_keys
    assert_equal [[true, [3, 1]], [false, [4]], [true, [1, 5, 9]], [false, [2, 6]], [true, [5, 3, 5]]],
                 [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5].chunk(&:odd?).to_a
    assert_equal [[1, ["a"]], [2, ["bb", "cc"]], [1, ["d"]]], %w[a bb cc d].chunk(&:size).to_a
    assert_equal [], [].chunk { 1 }.to_a
  end

  def test_chunk_special_keys_and_reserved_symbols
    r = [1, 2, 0, 3, 4, 0, 5].chunk { |x| x == 0 ? :_separator : true }.to_a
    assert_equal [[true, [1, 2]], [true, [3, 4]], [true, [5]]], r
    assert_equal [[true, [1]], [true, [2]]], [1, nil, 2].chunk { |x| x && true }.to_a
    r = [1, 2, 2, 3].chunk { |x| x == 2 ? :_alone : :ok }.to_a
    assert_equal [[:ok, [1]], [:_alone, [2]], [:_alone, [2]], [:ok, [3]]], r
    e = assert_raise(RuntimeError) { [1, 2].chunk { :_x }.to_a }
    assert_equal "symbols beginning with an underscore are reserved", e.message
  end

  def test_chunk_without_a_block_is_an_enumerator
    assert_kind_of Enumerator, [1].chunk
    assert_equal [[1, [1]], [0, [2]]], [1, 2].chunk.each { |x| x % 2 }.to_a
  end

  def test_chunk_on_a_hash_and_a_range
    assert_equal [[true, [[:a, 1]]], [false, [[:b, 2]]]], { a: 1, b: 2 }.chunk { |k, v| v.odd? }.to_a
    assert_equal [[false, [1, 2]], [true, [3, 4]]], (1..4).chunk { |x| x > 2 }.to_a
  end

  def test_slice_when_and_chunk_while
    a = [1, 2, 4, 9, 10, 11, 12, 15, 16, 19, 20, 21]
    assert_equal [[1, 2], [4], [9, 10, 11, 12], [15, 16], [19, 20, 21]], a.slice_when { |i, j| i + 1 != j }.to_a
    assert_equal [[1, 2], [4], [9, 10, 11, 12], [15, 16], [19, 20, 21]], a.chunk_while { |i, j| i + 1 == j }.to_a
    assert_equal [], [].slice_when { true }.to_a
    assert_equal [[1]], [1].chunk_while { false }.to_a
    assert_kind_of Enumerator, [1].slice_when { true }
    e = assert_raise(ArgumentError) { [1].slice_when }
    assert_equal "tried to create Proc object without a block", e.message
    assert_raise(ArgumentError) { [1].chunk_while }
  end

  def test_slice_before_and_after
    assert_equal [["a", "b"], ["c"], ["d", "e"]], %w[a b c d e].slice_before { |x| "cd".include?(x) }.to_a
    assert_equal [[1, 2], [10, 3]], [1, 2, 10, 3].slice_before(10..).to_a
    assert_equal [["a", "b"], ["c"], ["d", "e"]], %w[a b c d e].slice_after { |x| "bc".include?(x) }.to_a
    assert_equal [["foo\\", "bar"], ["baz"]], ["foo\\", "bar", "baz"].slice_after(/[^\\]\z/).to_a
    assert_equal [[1]], [1].slice_before(1).to_a
    e = assert_raise(ArgumentError) { [1].slice_before }
    assert_equal "wrong number of arguments (given 0, expected 1)", e.message
    e = assert_raise(ArgumentError) { [1].slice_before(1) { true } }
    assert_equal "wrong number of arguments (given 1, expected 0)", e.message
    e = assert_raise(ArgumentError) { [1].slice_after(1) { true } }
    assert_equal "both pattern and block are given", e.message
    e = assert_raise(ArgumentError) { [1].slice_after }
    assert_equal "wrong number of arguments (given 0, expected 1)", e.message
  end

  def test_grep_v
    assert_equal [1, 3], [1, "a", 3, "b"].grep_v(String)
    assert_equal [2, 4], (1..3).grep_v(2) { |x| x + 1 }
    assert_equal %w[b], %w[a b].grep_v(/a/)
  end

  def test_each_entry_packs_several_values
    o = Object.new
    def o.each
      yield 1
      yield 1, 2
      yield
    end
    o.extend(Enumerable)
    got = []
    assert_same o, o.each_entry { |x| got << x }
    assert_equal [1, [1, 2], nil], got
    assert_equal [1, [1, 2], nil], o.each_entry.to_a
  end

  def test_compact
    assert_equal [1, 2], [1, nil, 2].each.compact
    assert_equal [1, false], (1..2).map { |x| x == 1 ? 1 : false }.each.compact
  end

  def test_chain_and_enumerator_plus
    c = [1, 2].chain(3..4, [5])
    assert_equal [1, 2, 3, 4, 5], c.to_a
    assert_equal 5, c.size
    assert_kind_of Enumerator, c
    assert_equal "#<Enumerator::Chain: [[1, 2], 3..4, [5]]>", c.inspect
    got = []
    assert_same c, c.each { |x| got << x }
    assert_equal [1, 2, 3, 4, 5], got
    assert_equal [[1, 0], [2, 1], [3, 2]], [1].chain([2, 3]).each_with_index.to_a
    e = [1].each + [2]
    assert_kind_of Enumerator::Chain, e
    assert_equal [1, 2], e.to_a
    assert_equal [1, 2, 3], (e + [3]).to_a
    assert_equal Float::INFINITY, [1].chain((1..).each).size
    assert_nil [1].chain(Enumerator.new { |y| y << 2 }).size
    assert_equal [1], [1].chain.to_a
  end

  def test_sort_by_bang_and_to_ary
    a = %w[ccc a bb]
    assert_same a, a.sort_by!(&:size)
    assert_equal %w[a bb ccc], a
    en = a.sort_by!
    assert_kind_of Enumerator, en
    assert_equal 3, en.size
    en.each { |s| -s.size }
    assert_equal %w[ccc bb a], a
    assert_raise(FrozenError) { [2, 1].freeze.sort_by! { |x| x } }
    b = [1]
    assert_same b, b.to_ary
  end
end

class LazySliceTest < MnTest::Case
  def test_lazy_grep_v_and_compact_stay_lazy
    l = [1, nil, 2, "a"].lazy
    assert_kind_of Enumerator::Lazy, l.compact
    assert_equal [1, 2, "a"], l.compact.to_a
    assert_kind_of Enumerator::Lazy, l.grep_v(String)
    assert_equal [1, nil, 2], l.grep_v(String).to_a
    assert_equal ["1", "", "2"], l.grep_v(String) { |x| x.to_s }.to_a
    assert_equal [2, 4], (1..).lazy.map { |x| x.even? ? x : nil }.compact.first(2)
  end

  def test_lazy_slicing_works_on_endless_sources
    s = (1..).lazy.slice_when { |a, b| b % 3 == 0 }
    assert_kind_of Enumerator::Lazy, s
    assert_equal [[1, 2], [3, 4, 5]], s.first(2)
    assert_equal [[false, [1]], [true, [2]]], (1..).lazy.chunk(&:even?).first(2)
    assert_equal [[1, 2], [3, 4]], (1..).lazy.slice_after(&:even?).first(2)
    assert_equal [[1], [2, 3]], (1..).lazy.slice_before(&:even?).first(2)
    assert_equal [[1, 2], [3, 4]], (1..).lazy.chunk_while { |a, b| b.even? }.first(2)
  end
end
