# Array#sort, #sort!, #max, #min and Enumerable#sort_by (mnrb-compat array_sort.c): orders, CRuby's
# comparison errors, blocks that change the Array, and `<=>` redefined. Expected values are CRuby
# 3.1's and 3.3's; this file passes there too.

class ArraySortTest < MnTest::Case
  class Version
    include Comparable
    attr_reader :n
    def initialize(n) = @n = n
    def <=>(o) = o.is_a?(Version) ? n <=> o.n : nil
    def inspect = "v#{n}"
  end

  class Half
    def <=>(o) = 0.5
  end

  def test_orders
    assert_equal [1, 2, 3], [3, 1, 2].sort
    assert_equal [3, 2, 1], [3, 1, 2].sort { |a, b| b <=> a }
    assert_equal %w[a b c], %w[b c a].sort
    assert_equal [1, 2.5, 3r], [2.5, 1, 3r].sort
    assert_equal [-Float::INFINITY, -1.5, 0.0, 2.25], [0.0, 2.25, -Float::INFINITY, -1.5].sort
    assert_equal [[1, 2], [2, 1]], [[2, 1], [1, 2]].sort
    assert_equal %w[v1 v2 v3], [Version.new(3), Version.new(1), Version.new(2)].sort.map(&:inspect)
    assert_equal [2**64, 2**65], [2**65, 2**64].sort
    assert_equal [-2**70, 1, 2**70], [2**70, 1, -2**70].sort
  end

  def test_many
    r = Random.new(7)
    a = Array.new(10_000) { r.rand(1_000_000) }
    s = a.sort
    assert_equal a.size, s.size
    assert (1...s.size).all? { |i| s[i - 1] <= s[i] }
    assert_equal a.sum, s.sum
    strs = a.map(&:to_s)
    t = strs.sort
    assert (1...t.size).all? { |i| (t[i - 1] <=> t[i]) <= 0 }
    assert_equal s.reverse, a.sort { |x, y| y <=> x }
    assert_equal s, a.sort_by { |x| x }
    assert_equal s.max, a.max
    assert_equal s.min, a.min
  end

  def test_equal_elements_keep_their_order
    pairs = (0...50).map { |i| [i % 3, i] }
    assert_equal pairs.sort_by(&:first).map(&:first), pairs.map(&:first).sort
    assert_equal [1, 1, 2], [2, 1, 1.0].sort.map(&:to_i)
  end

  def test_comparison_errors
    e = assert_raise(ArgumentError) { [1, "a"].sort }
    assert_equal "comparison of Integer with String failed", e.message
    e = assert_raise(ArgumentError) { [1, nil].sort }
    assert_equal "comparison of Integer with nil failed", e.message
    e = assert_raise(ArgumentError) { ["a", 1].sort }
    assert_equal "comparison of String with 1 failed", e.message
    e = assert_raise(ArgumentError) { [1, 2.0, nil].sort }
    assert_equal "comparison of Float with nil failed", e.message
    e = assert_raise(ArgumentError) { [3, 1].sort { nil } }
    assert_equal "comparison of Integer with 1 failed", e.message
    e = assert_raise(ArgumentError) { ["b", :a].sort }
    assert_equal "comparison of String with :a failed", e.message
    e = assert_raise(ArgumentError) { [Version.new(1), 2].sort }
    assert_equal "comparison of ArraySortTest::Version with 2 failed", e.message
    e = assert_raise(ArgumentError) { [1, "a"].max }
    assert_equal "comparison of String with 1 failed", e.message
    e = assert_raise(ArgumentError) { [1, 2].sort_by { |x| x == 1 ? "a" : 1 } }
    assert_equal "comparison of String with 1 failed", e.message
  end

  def test_result_asked_greater_and_less_than_zero
    assert_equal 2, [Half.new, Half.new].sort.size
    assert_equal [2, 1], [1, 2].sort { 0.5 }
  end

  def test_frozen
    e = assert_raise(FrozenError) { [3, 1].freeze.sort! }
    assert_equal "can't modify frozen Array: [3, 1]", e.message
    assert_equal [1, 3], [3, 1].freeze.sort
  end

  def test_sort_bang_and_classes
    a = [3, 1, 2]
    assert_same a, a.sort!
    assert_equal [1, 2, 3], a
    sub = Class.new(Array)
    assert_equal Array, sub.new([2, 1]).sort.class
    assert_equal [1], [1].sort { raise "not called" }
    assert_equal [], [].sort!
  end

  def test_block_changes_the_array
    x = [3, 1, 2]
    assert_equal [1, 2, 3], x.sort { |a, b| x.clear; a <=> b }
    y = [3, 1, 2]
    y.sort! { |a, b| y << 9 if y.size < 5; a <=> b }
    assert_equal [1, 2, 3], y
  end

  def test_break_and_raise
    assert_equal :x, [5, 3, 1].sort { |a, b| break :x }
    assert_raise(RuntimeError) { [2, 1].sort { raise "stop" } }
    assert_equal :y, [2, 1].sort_by { break :y }
  end

  def test_max_min
    assert_nil [].max
    assert_nil [].min
    assert_equal 3, [3, 1, 2].max
    assert_equal 1, [3, 1, 2].min
    assert_equal "ccc", %w[aa b ccc].max { |a, b| a.size <=> b.size }
    assert_equal "b", %w[aa b ccc].min { |a, b| a.size <=> b.size }
    assert_equal [3, 2], [3, 1, 2].max(2)
    assert_equal [1, 2], [3, 1, 2].min(2)
    assert_equal 1, [1, 1.0].max
    assert_equal 1.0, [1.0, 1].max
    assert_equal "b", %w[a b].max
    assert_equal 2**70, [1, 2**70, -3].max
  end

  def test_sort_by
    assert_equal [3, 2, 1], [3, 1, 2].sort_by { |x| -x }
    assert_equal %w[a bb ccc], %w[bb a ccc].sort_by(&:size)
    assert_equal [[:a, 1], [:b, 2]], {b: 2, a: 1}.sort_by { |k, v| v }
    assert_equal Enumerator, [3, 1].sort_by.class
    assert_equal [[1, 1], [3, 0]], [3, 1].sort_by.with_index { |x, i| x }.map { |x| [x, [3, 1].index(x)] }
    assert_equal [1, 2, 3], (1..3).sort_by { |x| x }
    assert_equal [], [].sort_by { |x| x }
  end

  def test_redefined_cmp_is_called
    code = "class Integer; alias_method :cmp0, :<=>; def <=>(o) = -cmp0(o); end\n" \
           "p [1, 3, 2].sort, [1, 3, 2].max, [1, 3, 2].sort_by { |x| x }"
    out = IO.popen([RbConfig.ruby, "-e", code], err: [:child, :out], &:read)
    assert_equal "[3, 2, 1]\n1\n[3, 2, 1]\n", out
  end
end
