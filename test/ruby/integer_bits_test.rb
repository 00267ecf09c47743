# Integer#[] (bits, widths and ranges of bits), #ord, #size, magnitude, Float#to_int, and
# Numeric's generic arithmetic as a user-defined Numeric subclass sees it. Expected values are
# CRuby 3.1's (this file passes there too).

class IntegerBitsTest < MnTest::Case
  def test_one_bit
    assert_equal 1, 5[0]
    assert_equal 0, 5[1]
    assert_equal 1, 5[2]
    assert_equal 0, 5[-1]
    assert_equal 0, 5[2**70]
    assert_equal 1, -5[2**70]
    assert_equal 1, (2**70)[70]
    assert_equal 1, 5[2.5]
  end

  def test_width_and_range
    assert_equal 1, 5[0, 2]
    assert_equal 1, 0b1011[1..2]
    assert_equal 1, 0b1011[1...2]
    assert_equal 5, 0b1011[1..]
    assert_equal 0, 0b1000[..2]
    assert_equal 2, 5[1...3]
    assert_equal -1, -1[0..]
    assert_equal -1, -1[3..]
    assert_equal 0, 5[3..1]
    assert_equal 4, 5[-2..1]
    assert_equal 2, 5[1..0]
    assert_equal 0, 6[1...1]
    assert_equal 0, 6[1, 0]
    assert_equal 2, 5[-1, 2]
    assert_equal 1, 0b1001_0000[4, 3]
  end

  def test_errors
    e = assert_raise(ArgumentError) { 0b1011[..2] }
    assert_equal "The beginless range for Integer#[] results in infinity", e.message
    e = assert_raise(TypeError) { 5["a"] }
    assert_equal "no implicit conversion of String into Integer", e.message
    assert_raise(TypeError) { 5[0, "a"] }
    e = assert_raise(ArgumentError) { 5[1, 2, 3] }
    assert_equal "wrong number of arguments (given 3, expected 1..2)", e.message
  end

  def test_ord_size_magnitude
    assert_equal 97, 97.ord
    assert_equal 8, 1.size
    assert_equal 8, (2**62).size
    assert_equal 8, (-2**62).size
    assert_equal 9, (2**64).size
    assert_equal 17, (2**128).size
    assert_equal 3, -3.magnitude
    assert_equal 2.5, -2.5.magnitude
    assert_equal 2, 2.9.to_int
    assert_equal -2, -2.9.to_int
  end

  class Meters < Numeric
    attr_reader :v
    def initialize(v) = @v = v
    def to_f = @v.to_f
    def to_i = @v.to_i
    def /(o) = Meters.new(@v.to_f / (o.is_a?(Meters) ? o.v : o))
    def *(o) = Meters.new(@v * (o.is_a?(Meters) ? o.v : o))
    def -(o) = Meters.new(@v - (o.is_a?(Meters) ? o.v : o))
    def floor(*a) = @v.floor(*a)
    def <=>(o) = @v <=> (o.is_a?(Meters) ? o.v : o)
    def ==(o) = (o.is_a?(Meters) ? o.v : o) == @v
    def <(o) = (self <=> o) < 0
    def >(o) = (self <=> o) > 0
    def abs = Meters.new(@v.abs)
  end

  def test_generic_numeric_methods
    m = Meters.new(7.5)
    assert_equal 3, m.div(2)
    assert_equal 1.5, m.modulo(2).v
    assert_equal 3, m.divmod(2)[0]
    assert_equal 3.75, m.fdiv(2)
    assert_equal 7, m.to_int
    assert_equal 7.5, m.magnitude.v
    assert_equal 8, m.round
    assert_equal 7, m.truncate
    assert_equal 8, m.ceil
    assert_equal [m, m], m.coerce(m)
    assert_equal [2.0, 7.5], m.coerce(2)
    e = assert_raise(ZeroDivisionError) { m.div(0) }
    assert_equal "divided by 0", e.message
  end
end

class IntegerEnumSizeTest < MnTest::Case
  # Integer#size must not leak into the size of enumerators over an Integer
  def test_enumerator_sizes
    assert_equal 3, 3.times.size
    assert_equal 0, -2.times.size
    assert_equal 5, 1.upto(5).size
    assert_equal 0, 5.upto(1).size
    assert_equal 5, 5.downto(1).size
  end
end
