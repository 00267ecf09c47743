# Integers beyond the immediate range (+-2**61: mruby boxes them) compared by the VM's own
# instructions (==, <, <=, >, >=: they read the boxed value, not the pointer). Past 64 bits they
# are Bignums: bignum_test.rb.

class IntegerCompareTest < MnTest::Case
  INT64_MAX = 2**62 + (2**62 - 1)
  BIG = [2**61, 2**61 + 1, 2**62, INT64_MAX, -2**61 - 1, -2**62, -INT64_MAX - 1]

  def test_equal_big_integers_are_equal
    BIG.each do |v|
      same = (v ^ 1) ^ 1                   # a distinct object with the same value
      assert v == same, "#{v} == #{same}"
      assert !(v != same), "#{v} != #{same}"
      assert_equal v.hash, same.hash
    end
  end

  def test_ordering_of_big_integers_and_mixed_operands
    sorted = BIG.sort
    sorted.each_cons(2) do |a, b|
      assert a < b, "#{a} < #{b}"
      assert b > a, "#{b} > #{a}"
      assert a <= b && b >= a, "#{a} <= #{b}"
      assert !(a > b), "not #{a} > #{b}"
    end
    assert 2**62 > 1, "2**62 > 1"
    assert -2**62 < -1, "-2**62 < -1"
    assert 2**62 > 1.5 && 1.5 < 2**62, "against a Float"
    assert 2**62 == 2.0**62 && 2.0**62 == 2**62, "equal to a Float"
  end

  def test_collections_find_big_integers
    assert [1, 2**62].include?(2**61 * 2)
    assert_equal 1, [5, 2**62].index(2**62)
    assert_equal :x, { 2**62 => :x }[2**62]
    assert_equal [2**62], [2**62, 2**62].uniq
  end
end
