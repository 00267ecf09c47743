# Array#sum, Enumerable#sum, Range#sum and Hash#sum, as in CRuby 3.1.

assert('Array#sum of Integers') do
  assert_equal 0, [].sum
  assert_equal 6, [1, 2, 3].sum
  assert_equal 16, [1, 2, 3].sum(10)
  assert_equal 12, [1, 2, 3].sum { |x| x * 2 }
end

assert('Array#sum returns init for an empty Array') do
  assert_equal 0.0, [].sum(0.0)
  assert_equal '', [].sum('')
end

# mruby's word boxing drops the two lowest bits of a Float, so 0.1 * 10 is not exactly 1.0 here;
# the exact cases below use values that survive boxing.
assert('Array#sum of Floats is compensated (Kahan-Babuska)') do
  assert_float 1.0, ([0.1] * 10).sum
  assert_float 1.0, ([0.1] * 10).sum(0.0)
  assert_equal 1.0, [1e100, 1.0, -1e100].sum
  assert_equal 3.0, [3.0, 1e100, -1e100].sum
  assert_float 1.6, [1, 0.1, 0.2, 0.3].sum
  assert_equal 3.0, [1, 2].sum(0.0)
end

assert('Array#sum of Floats follows IEEE for NaN and Infinity') do
  assert_true [Float::INFINITY, -Float::INFINITY].sum.nan?
  assert_equal Float::INFINITY, [Float::INFINITY, 1.0].sum
  assert_true [Float::NAN, 1.0].sum.nan?
  assert_true [1.0, Float::NAN, Float::INFINITY].sum.nan?
end

assert('Array#sum with Rationals stays exact') do
  skip 'no Rational: mnrb-rational is built after mnrb-compat' unless Object.const_defined?(:Rational)
  assert_equal Rational(3, 1), [1r, 2r].sum
  assert_equal Rational(3, 1), [1r, 2].sum
  assert_equal Rational(4, 1), [1, 2r].sum(1)
  assert_equal 4.0, [1, 2r].sum(1.0)
  assert_equal 12.0, [1.5, 2, 3r, 4.5, 1].sum
end

assert('Array#sum falls back to + for other objects') do
  assert_equal 'ab', %w[a b].sum('')
  assert_equal [1, 2], [[1], [2]].sum([])
  assert_raise(TypeError) { %w[a b].sum }
  assert_raise(TypeError) { [0.1, 'a'].sum }
end

# An object that records what is added to it.
class CompatSumLog
  attr_reader :log

  def initialize
    @log = []
  end

  def +(other)
    @log << other
    self
  end
end

assert('Array#sum adds the Integer part to init first, like CRuby') do
  acc = CompatSumLog.new
  assert_raise(TypeError) { [1, 2].sum(acc) }  # 3 + acc
  assert_equal [], acc.log
  [1, 'x'].sum(acc) rescue nil                 # 1 + acc, too
  assert_equal [], acc.log
  ['x', 'y'].sum(acc)
  assert_equal ['x', 'y'], acc.log
end

assert('Array#sum checks arity') do
  assert_raise(ArgumentError) { [1, 2].sum(1, 2) }
end

assert('Enumerable#sum') do
  assert_equal 6, [1, 2, 3].each.sum
  assert_float 1.0, ([0.1] * 10).each.sum
  assert_float 1.0, ([0.1] * 10).each.sum(0.0)
  assert_equal 3.0, [3.0, 1e100, -1e100].each.sum(0.0)
  assert_equal 1.0, [1e100, 1.0, -1e100].each.sum
  assert_float 11.0, [1, 3r, 1.5, 4.5, 1].each.sum if Object.const_defined?(:Rational)
  assert_equal 14, [[1, 2], [3, 4]].each.sum { |a, b| a * b }
end

assert('Enumerable#sum calls init#+ for non-numeric init') do
  acc = CompatSumLog.new
  [1, 2].each.sum(acc)
  assert_equal [1, 2], acc.log
end

assert('Enumerable#sum packs multiple yielded values into an Array') do
  o = Object.new
  def o.each; yield 1, 2; yield 3, 4; end
  o.extend(Enumerable)
  assert_equal [1, 2, 3, 4], o.sum([])
end

assert('Range#sum of Integers is computed in O(1)') do
  assert_equal 55, (1..10).sum
  assert_equal 45, (1...10).sum
  assert_equal 0, (1..0).sum
  assert_equal 60, (1..10).sum(5)
  assert_equal 0, (-5..5).sum
  assert_equal 500000000500000000, (1..1000000000).sum
  assert_equal 8000000002000000000, (1..4000000000).sum
  assert_equal 4000000001, (-4000000000..4000000001).sum
end

assert('Range#sum iterates with a block or a Float init') do
  assert_equal 110, (1..10).sum { |x| x * 2 }
  assert_equal 55.0, (1..10).sum(0.0)
  assert_equal 'abc', ('a'..'c').sum('')
  assert_equal 6, (1..3.5).sum
  assert_raise(TypeError) { (1.0..3.0).sum }
end

assert('Range#sum converts a non-Integer init with Float(), as Integer#coerce does') do
  assert_equal 56.0, (1..10).sum(1r) if Object.const_defined?(:Rational)
  assert_raise(TypeError) { (1..10).sum(nil) }
end

assert('Range#sum overflows into a Bignum, in O(1) for Bignum bounds too') do
  assert_equal 50000000005000000000, (1..10000000000).sum
  assert_equal 2**139 + 2**69, (1..2**70).sum
  assert_equal 4 * 2**70 + 6, (2**70..2**70 + 3).sum
  assert_equal 0, (2**70...2**70).sum
end

assert('Array#sum adds Bignums exactly') do
  assert_equal 2**71, [2**70, 2**70].sum
  assert_equal 2**63, [2**62, 2**62].sum
  assert_equal 1, [2**70, 1, -2**70].sum
end

assert('Hash#sum sums [key, value] pairs') do
  assert_equal 3, { a: 1, b: 2 }.sum { |k, v| v }
  assert_equal [:a, 1, :b, 2], { a: 1, b: 2 }.sum([])
  assert_raise(TypeError) { { a: 1 }.sum }
end
