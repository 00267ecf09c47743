# Comparisons in conditions (`if a < b`, `while x >= 0`, `until v == 0`) and OP_ADDI/OP_SUBI:
# the branch taken either way, the comparison's value kept where code reads it, every operand kind
# (fixnums, boxed Integers, Floats, NaN, Strings, objects with their own == and <=>), and a
# comparison or an `x + 1` that raises inside a condition: rescued, on the right line. mruby patch
# 0225 takes the branch after a comparison inside the comparison and skips recording pc on the
# fast paths. Expected values are CRuby's; this file passes on CRuby 3.1 and 3.3.8.

class CompareBranchTest < MnTest::Case
  def pick(a, b)
    r = []
    r << (a < b ? :lt : :not_lt)
    r << (a <= b ? :le : :not_le)
    r << (a > b ? :gt : :not_gt)
    r << (a >= b ? :ge : :not_ge)
    r << (a == b ? :eq : :not_eq)
    r << :lt2 if a < b
    r << :ge2 unless a < b
    r
  end

  def test_every_comparison_both_ways
    assert_equal [:lt, :le, :not_gt, :not_ge, :not_eq, :lt2], pick(1, 2)
    assert_equal [:not_lt, :le, :not_gt, :ge, :eq, :ge2], pick(2, 2)
    assert_equal [:not_lt, :not_le, :gt, :ge, :not_eq, :ge2], pick(3, 2)
    assert_equal [:lt, :le, :not_gt, :not_ge, :not_eq, :lt2], pick(-5, 0)
    assert_equal [:lt, :le, :not_gt, :not_ge, :not_eq, :lt2], pick(1.5, 2)
    assert_equal [:not_lt, :le, :not_gt, :ge, :eq, :ge2], pick(2.0, 2)
    assert_equal [:lt, :le, :not_gt, :not_ge, :not_eq, :lt2], pick(2**64, 2**65)
    assert_equal [:not_lt, :le, :not_gt, :ge, :eq, :ge2], pick(2**64, 2**64)
    assert_equal [:lt, :le, :not_gt, :not_ge, :not_eq, :lt2], pick("a", "b")
    assert_equal [:not_lt, :not_le, :not_gt, :not_ge, :not_eq, :ge2], pick(Float::NAN, 1)
  end

  def test_loops_count_right
    n = 0
    i = 10
    while i >= 0
      n += 1
      i -= 1
    end
    assert_equal 11, n
    assert_equal(-1, i)
    j = 0
    j += 1 until j == 7
    assert_equal 7, j
    k = 0
    k += 2 while k < 9
    assert_equal 10, k
    m = 5.0
    m -= 1 while m > 0.5
    assert_equal 0.0, m
  end

  def test_the_value_of_a_comparison_is_kept
    x = 3
    a = (x > 2) && :yes
    assert_equal :yes, a
    b = (x == 3) || :never
    assert_equal true, b
    c = (x < 2) || :no
    assert_equal :no, c
    d = if (e = x >= 3) then e end
    assert_equal true, d
    f = (x != 3)
    assert_equal false, f
    g = [1, 2, 3].map { |v| v == 2 }
    assert_equal [false, true, false], g
  end

  class Versioned
    include Comparable
    attr_reader :v, :calls
    def initialize(v) = (@v, @calls = v, 0)
    def <=>(o)
      @calls += 1
      v <=> o.v
    end
  end

  class AlwaysEqual
    def ==(o) = true
  end

  def test_objects_with_their_own_comparison
    a = Versioned.new(1)
    b = Versioned.new(2)
    r = a < b ? :lt : :ge
    assert_equal :lt, r
    r = a == Versioned.new(1) ? :same : :differs
    assert_equal :same, r
    assert_equal 2, a.calls
    w = AlwaysEqual.new
    assert_equal :eq, (w == 5 ? :eq : :ne)
  end

  def test_a_comparison_that_raises_in_a_condition
    line = __LINE__ + 2
    e = assert_raise(ArgumentError) do
      if 1 < "2" then :never end
    end
    assert e.message.include?("comparison of Integer with String failed"), e.message
    where = e.backtrace.find { |l| l.include?("compare_branch_test") }
    assert where.include?("compare_branch_test.rb:#{line}"), where
    hits = 0
    [1, nil, 3].each do |v|
      begin
        hits += 1 if v > 0
      rescue NoMethodError
        hits += 10
      end
    end
    assert_equal 12, hits
  end

  def test_addi_and_subi_past_a_fixnum
    big = 2**62 - 1
    x = big
    x += 1
    assert_equal 2**62, x
    y = -(2**62)
    y -= 1
    assert_equal(-(2**62) - 1, y)
    z = 2**64
    z -= 1
    assert_equal 2**64 - 1, z
    f = 1.5
    f += 1
    assert_equal 2.5, f
    line = __LINE__ + 2
    e = assert_raise(NoMethodError) do
      nil_value = nil; nil_value += 1
    end
    where = e.backtrace.find { |l| l.include?("compare_branch_test") }
    assert where.include?("compare_branch_test.rb:#{line}"), where
  end
end
