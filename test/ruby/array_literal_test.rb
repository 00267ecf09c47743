# Short array literals and `a, b = x` (patches/mruby/0084-vm-array-literal.patch: OP_ARRAY makes
# literals of up to 3 elements in the object's own slot without the general allocator's checks,
# OP_AREF reads an element in line). Each literal's contents, length, growth past the embedded
# size, independence of two arrays made by one site, collections while literals are being made
# (GC.stress), and multiple assignment from arrays shorter and longer than the targets and from
# non-arrays. Expected values are CRuby 3.1's (this file passes there).
class ArrayLiteralTest < MnTest::Case
  def lit(a, b, c, d)
    [[], [a], [a, b], [a, b, c], [a, b, c, d]]
  end

  def test_literals_of_each_short_length
    x = lit(1, :b, "c", nil)
    assert_equal [[], [1], [1, :b], [1, :b, "c"], [1, :b, "c", nil]], x
    assert_equal [0, 1, 2, 3, 4], x.map(&:size)
    assert_equal [nil, nil, nil, nil, nil], x.map { |a| a[4] }
    assert_equal [nil, 1, :b, "c", nil], x.map(&:last)
  end

  def test_one_site_makes_independent_arrays
    a = lit(1, 2, 3, 4)
    b = lit(1, 2, 3, 4)
    a[2] << 9
    a[1][0] = :changed
    assert_equal [[], [1], [1, 2], [1, 2, 3], [1, 2, 3, 4]], b
    assert_equal [:changed], a[1]
    assert_equal false, a[2].equal?(b[2])
  end

  def test_growing_past_the_embedded_size
    a = [1, 2]
    10.times { |i| a << i }
    assert_equal [1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9], a
    b = [:x, :y, :z]
    b.unshift(:w)
    b.concat([1, 2])
    assert_equal [:w, :x, :y, :z, 1, 2], b
    c = [nil, nil]
    c.pop
    c.shift
    assert_equal [], c
    assert_equal [3, 4], [1, 2, 3, 4].then { |d| [d[2], d[3]] }
  end

  def test_literals_made_while_collecting
    GC.stress = true
    made = (0...200).map { |i| [i, [i.to_s, [i]]] }
    GC.stress = false
    assert_equal (0...200).map { |i| [i, [i.to_s, [i]]] }, made
  ensure
    GC.stress = false
  end

  def test_trees_of_short_arrays_survive_collections
    make = ->(d) { d == 0 ? [nil, nil] : [make.(d - 1), make.(d - 1)] }
    check = ->(n) { l, r = n; l ? 1 + check.(l) + check.(r) : 1 }
    keep = make.(8)
    total = 0
    30.times { total += check.(make.(6)); GC.start if total % 5 == 0 }
    assert_equal 30 * 127, total
    assert_equal 511, check.(keep)
  end

  def test_multiple_assignment_sources
    l, r = [1, 2]
    assert_equal [1, 2], [l, r]
    l, r = [1]
    assert_equal [1, nil], [l, r]
    l, r = []
    assert_equal [nil, nil], [l, r]
    l, r = [1, 2, 3]
    assert_equal [1, 2], [l, r]
    l, r = 5
    assert_equal [5, nil], [l, r]
    l, r = nil
    assert_equal [nil, nil], [l, r]
    big = (1..20).to_a
    l, r = big
    assert_equal [1, 2], [l, r]
    l, *m, r = [1, 2, 3, 4]
    assert_equal [1, [2, 3], 4], [l, m, r]
  end

  def test_each_element_kind_in_a_literal
    o = Object.new
    a = [1.5, o, "s".dup]
    assert_equal 1.5, a[0]
    assert_same o, a[1]
    assert_equal "s", a[2]
    assert_equal Array, [1, 2].class
    assert_equal false, [1, 2].frozen?
  end
end
