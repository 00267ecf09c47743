# Rational as CRuby's core class: Integer parts of any size in lowest terms, Kernel#Rational with
# strings and exception: false, to_r / rationalize on Integer, Float, String and nil, rounding with
# digits and half:, exact arithmetic with Integers (Bignums too), Floats through coerce, and CRuby's
# exception classes and messages. Expected values are CRuby 3.1's (this file passes there too).

class RationalTest < MnTest::Case
  B = 2**70

  def test_normalized_to_lowest_terms_with_a_positive_denominator
    assert_equal [1, 2], [Rational(2, 4).numerator, Rational(2, 4).denominator]
    assert_equal [-1, 2], [Rational(2, -4).numerator, Rational(2, -4).denominator]
    assert_equal [0, 1], [Rational(0, -5).numerator, Rational(0, -5).denominator]
    assert_equal "(1/2)", Rational(-3, -6).inspect
    assert_equal "1/2", Rational(3, 6).to_s
    assert_equal "(3/1)", Rational(3).inspect
  end

  def test_zero_denominator_raises_zero_division_error
    e = assert_raise(ZeroDivisionError) { Rational(1, 0) }
    assert_equal "divided by 0", e.message
    assert_raise(ZeroDivisionError) { Rational(1, 2) / 0 }
    assert_raise(ZeroDivisionError) { 3 / Rational(0) }
    assert_raise(ZeroDivisionError) { Rational(0) ** -1 }
    assert_equal Float::INFINITY, Rational(1, 2) / 0.0
  end

  def test_bignum_parts
    r = B.to_r / 3
    assert_equal "(1180591620717411303424/3)", r.inspect
    assert_equal [B, 3], [Rational(B, 3).numerator, Rational(B, 3).denominator]
    assert_equal Rational(B, 1), B.to_r
    assert_equal Rational(B, 3), B.quo(3)
    assert_equal Rational(1, 3), Rational(B, 3 * B)
    assert_equal B * B, (Rational(B, 7) * Rational(B, 1) * 7).to_i
    assert_equal Rational(2**140 + 1, 2**70), Rational(B) + Rational(1, B)
    assert_equal 393530540239137101141, (B.to_r / 3).round
    assert_equal 3.935305402391371e+20, (B.to_r / 3).to_f
  end

  def test_kernel_rational_with_strings
    assert_equal Rational(1, 2), Rational("2/4")
    assert_equal Rational(3, 4), Rational("0.75")
    assert_equal Rational(1, 3), Rational("  1/3  ")
    assert_equal Rational(1, 2), Rational("1.5/3")
    assert_equal Rational(100, 3), Rational("1e2/3")
    assert_equal Rational(-1, 200), Rational("-0.5e-2")
    assert_equal Rational(10), Rational("1_0")
    assert_equal Rational(1, 6), Rational("1/3", "2")
    assert_equal Rational(1, 6), Rational("1/3", 2)
  end

  def test_kernel_rational_rejects_bad_strings
    e = assert_raise(ArgumentError) { Rational("1 /3") }
    assert_equal 'invalid value for convert(): "1 /3"', e.message
    e = assert_raise(ArgumentError) { Rational("") }
    assert_equal 'invalid value for convert(): ""', e.message
    assert_raise(ArgumentError) { Rational("abc") }
    assert_raise(ArgumentError) { Rational("1__0") }
    assert_nil Rational("abc", exception: false)
    assert_nil Rational(nil, exception: false)
    assert_raise(ZeroDivisionError) { Rational(1, 0, exception: false) }
  end

  def test_kernel_rational_conversions
    assert_equal Rational(3, 4), Rational(1.5, 2)
    assert_equal Rational(3, 2), Rational(1.5)
    assert_equal Rational(1, 3), Rational(Rational(1, 3))
    assert_equal Rational(2, 3), Rational(Rational(1, 3), Rational(1, 2))
    assert_equal Rational(5), Rational(Complex(5, 0))
    assert_equal Rational(1, 2), Rational(Complex(Rational(1, 2), 0))
    o = Object.new
    def o.to_r = Rational(3)
    assert_equal Rational(3), Rational(o)
  end

  def test_kernel_rational_type_errors
    e = assert_raise(TypeError) { Rational(nil) }
    assert_equal "can't convert nil into Rational", e.message
    e = assert_raise(TypeError) { Rational(Object.new) }
    assert_equal "can't convert Object into Rational", e.message
    assert_raise(TypeError) { Rational(1, nil) }
    e = assert_raise(RangeError) { Rational(Complex(1, 2)) }
    assert_equal "can't convert 1+2i into Rational", e.message
  end

  def test_string_to_r_reads_a_prefix
    assert_equal Rational(3, 4), "0.75".to_r
    assert_equal Rational(1000), "1_000".to_r
    assert_equal Rational(1), "1__0".to_r
    assert_equal Rational(1, 2), " 2/4x".to_r
    assert_equal Rational(100), "1e2".to_r
    assert_equal Rational(1, 200), "1.5e-2/3".to_r
    assert_equal Rational(1, 2), ".5".to_r
    assert_equal Rational(-1, 2), "-0.5".to_r
    assert_equal Rational(0), "abc".to_r
    assert_equal Rational(0), "".to_r
    assert_equal Rational(2, 5), "1/2.5".to_r
    assert_equal Rational(1, 200), "1/2e2".to_r
    assert_raise(ZeroDivisionError) { "1/0".to_r }
    assert_equal Rational(5), Rational("5.")
    assert_equal [Rational(2), Rational(150), Rational(-46, 5), Rational(1234567), Rational(21), Rational(7, 2)],
                 ["  2  ", "300/2", "-9.2", "1_234_567", "21 June 09", "21/06/09"].map(&:to_r)
  end

  def test_float_to_r_is_exact
    assert_equal Rational(3, 2), 1.5.to_r
    assert_equal Rational(3602879701896397, 36028797018963968), 0.1.to_r
    assert_equal Rational(0), 0.0.to_r
    assert_equal Rational(-1, 4), -0.25.to_r
    assert_equal Rational(10**20), 1e20.to_r
    assert_equal 2**1023, 2.0**1023.to_r.to_i
    e = assert_raise(FloatDomainError) { Float::INFINITY.to_r }
    assert_equal "Infinity", e.message
    e = assert_raise(FloatDomainError) { Float::NAN.to_r }
    assert_equal "NaN", e.message
    assert_raise(FloatDomainError) { (-Float::INFINITY).to_r }
  end

  def test_rationalize
    assert_equal Rational(1, 10), 0.1.rationalize(Rational(1, 100))
    assert_equal Rational(1, 10), 0.1.rationalize
    assert_equal Rational(1), 1.0.rationalize
    assert_equal Rational(333, 1000), 0.333.rationalize
    assert_equal Rational(3, 2), 1.5.rationalize(0.1)
    assert_equal Rational(22, 7), 3.14159.rationalize(Rational(1, 100))
    assert_equal Rational(-1, 10), -0.1.rationalize
    assert_equal Rational(1, 99999999999999997962), 1e-20.rationalize
    assert_equal Rational(0), 0.0.rationalize
    assert_equal Rational(2), Rational(7, 3).rationalize(Rational(1, 2))
    assert_equal Rational(7, 3), Rational(7, 3).rationalize
    assert_equal Rational(-5, 2), Rational(-7, 3).rationalize(Rational(1, 5))
    assert_equal Rational(5), 5.rationalize
    assert_equal Rational(0), 0.1.rationalize(Rational(1, 10))
    assert_equal Rational(-1), -1.5.rationalize(0.5)
    assert_equal Rational(1), Rational(3, 2).rationalize(Rational(1, 2))
    assert_equal Rational(-1, 3), Rational(-1, 3).rationalize(0.1)
    assert_equal Rational(-11, 3), -3.7.rationalize(0.05)
    assert_equal Rational(1, 3), Rational("0.3").rationalize(Rational(1, 10))
    assert_equal Rational(-247, 2), Rational("-123.456").round(1)
    assert_equal(-120, Rational("-123.456").round(-1))
    assert_equal Rational(0), nil.rationalize
    assert_equal Rational(0), nil.to_r
  end

  def test_rounding_to_integers
    assert_equal [4, -4, 1, 2], [Rational(7, 2).round, Rational(-7, 2).floor, Rational(5, 3).truncate, Rational(5, 3).ceil]
    assert_equal [-4, -3, -3], [Rational(-7, 2).round, Rational(-7, 2).ceil, Rational(-7, 2).truncate]
    assert_equal Integer, Rational(7, 2).round.class
    assert_equal [-2, 2, 3], [Rational(-5, 2).round(half: :even), Rational(5, 2).round(half: :down), Rational(5, 2).round(half: :up)]
    assert_equal 4, Rational(7, 2).round(half: nil)
    e = assert_raise(ArgumentError) { Rational(1, 2).round(half: :foo) }
    assert_equal "invalid rounding mode: foo", e.message
  end

  def test_rounding_with_digits
    assert_equal Rational(157, 50), Rational(22, 7).round(2)
    assert_equal 3, Rational(22, 7).round(0)
    assert_equal 0, Rational(22, 7).round(-1)
    assert_equal 3, Rational(22, 7).floor(0)
    assert_equal Rational(314, 100), Rational(22, 7).floor(2)
    assert_equal Rational(315, 100), Rational(22, 7).ceil(2)
    assert_equal 130, Rational(1234, 10).ceil(-1)
    assert_equal Rational(-314, 100), Rational(-22, 7).truncate(2)
    assert_equal Rational(1, 4), Rational(1, 4).round(2)
    assert_equal Rational(2, 10), Rational(25, 100).round(1, half: :even)
  end

  def test_arithmetic_with_integers_and_floats
    assert_equal Rational(5, 6), Rational(1, 2) + Rational(1, 3)
    assert_equal Rational(1, 6), Rational(1, 2) - Rational(1, 3)
    assert_equal Rational(3, 2), Rational(1, 2) * 3
    assert_equal Rational(1, 6), Rational(1, 2) / 3
    assert_equal Rational(7, 2), 3 + Rational(1, 2)
    assert_equal Rational(5, 2), 3 - Rational(1, 2)
    assert_equal Rational(3, 2), 3 * Rational(1, 2)
    assert_equal Rational(6), 3 / Rational(1, 2)
    assert_equal 2.0, 1.5 + Rational(1, 2)
    assert_equal 0.75, 1.5 * Rational(1, 2)
    assert_equal 2.0, Rational(1, 2) + 1.5
    assert_equal Float, (Rational(1, 2) * 1.0).class
    assert_equal Rational(-1, 2), -Rational(1, 2)
    assert_equal Rational(1, 2), Rational(-1, 2).abs
    assert_equal Rational(1, 2), Rational(-1, 2).magnitude
  end

  def test_division_family
    assert_equal [2, Rational(1, 12)], Rational(3, 4).divmod(Rational(1, 3))
    assert_equal Rational(1, 2), Rational(7, 2) % 1
    assert_equal 1, Rational(7, 2).div(2)
    assert_equal [10, Rational(1, 3)], 7.divmod(Rational(2, 3))
    assert_equal Rational(-3, 2), Rational(-7, 2).remainder(2)
    assert_equal Rational(1, 3), 1.quo(3)
    assert_equal 0.5, 1.quo(2.0)
    assert_equal 0.5, Rational(1, 2).fdiv(1)
    assert_equal 0.5, 1.fdiv(Rational(2))
    assert_equal Rational(1, 4), Rational(1, 2).quo(2)
    assert_equal 1, 7 % Rational(3)
    assert_equal 2, 7.div(Rational(3))
  end

  def test_exponentiation
    assert_equal Rational(1, 4), 2**-2
    assert_equal Rational(1, 2), 2.pow(-1)
    assert_equal Rational(1, B), 2**-70
    assert_equal 1.4142135623730951, 2**Rational(1, 2)
    assert_equal 8, 2**Rational(3)
    assert_equal Rational(4), Rational(1, 2)**-2
    assert_equal Rational(1, 8), Rational(1, 2)**3
    assert_equal 2.0, Rational(4)**Rational(1, 2)
    assert_equal 1.4142135623730951, Rational(2)**0.5
    assert_equal Rational(1), Rational(-1)**B
    assert_equal Rational(-1), Rational(-1)**(B + 1)
    assert_equal Rational(1), Rational(5, 7)**0
    e = assert_raise(ZeroDivisionError) { 0**-1 }
    assert_equal "divided by 0", e.message
    assert_equal [1, -1, 1], [1**-3, (-1)**-3, (-1)**-2]
    assert_equal Integer, (1**-3).class
    assert_equal Rational(1), 1**Rational(1, 3)
    assert_equal Rational(0), Rational(0)**Rational(1, 3)
    assert_raise(ZeroDivisionError) { Rational(0)**Rational(-7, 2) }
  end

  def test_zero_divisors
    assert_equal Float::INFINITY, 1.fdiv(Rational(0))
    assert 0.fdiv(Rational(0)).nan?
    assert_raise(ZeroDivisionError) { Rational(1, 3).div(0.0) }
    assert_raise(ZeroDivisionError) { Rational(1, 3) % 0 }
    assert_equal [0, 0.0], 0.divmod(1.5)
    assert_equal [-3, -0.5], 7.divmod(-2.5)
    assert_nil 1.infinite?
  end

  def test_comparison_and_equality
    assert_equal(-1, Rational(1, 3) <=> Rational(1, 2))
    assert_equal 0, Rational(2, 1) <=> 2
    assert_equal 1, 1 <=> Rational(1, 2)
    assert_equal(-1, 0.25 <=> Rational(1, 2))
    assert_nil Rational(1, 2) <=> "a"
    assert Rational(1, 2) < 1
    assert 1 > Rational(1, 2)
    assert 0.6 > Rational(1, 2)
    assert_equal true, Rational(2) == 2
    assert_equal true, 2 == Rational(2)
    assert_equal true, Rational(1, 2) == 0.5
    assert_equal true, 0.5 == Rational(1, 2)
    assert_equal false, Rational(1, 2) == "1/2"
    e = assert_raise(ArgumentError) { Rational(1, 2) < "a" }
    assert_equal "comparison of Rational with String failed", e.message
    assert_equal [Rational(1, 3), Rational(1, 2), 1], [1, Rational(1, 2), Rational(1, 3)].sort
    assert_equal Rational(1, 2), [1, Rational(1, 2), 0.75].min
  end

  def test_hash_and_eql
    assert_equal Rational(1, 2).hash, Rational(2, 4).hash
    assert Rational(1, 2).eql?(Rational(1, 2))
    assert !Rational(1, 2).eql?(0.5)
    assert !Rational(1).eql?(1)
    assert_equal :x, { Rational(1, 2) => :x }[Rational(3, 6)]
    assert_equal 2, [Rational(1, 2), Rational(2, 4), Rational(1, 3)].uniq.size
  end

  def test_coerce
    assert_equal [Rational(2), Rational(1, 2)], Rational(1, 2).coerce(2)
    assert_equal [1.5, 0.5], Rational(1, 2).coerce(1.5)
    assert_equal [Rational(1, 3), Rational(1, 2)], Rational(1, 2).coerce(Rational(1, 3))
    e = assert_raise(TypeError) { Rational(1, 2).coerce("a") }
    assert_equal "String can't be coerced into Rational", e.message
  end

  def test_conversions
    assert_equal 3, Rational(7, 2).to_i
    assert_equal(-3, Rational(-7, 2).to_i)
    assert_equal 3.5, Rational(7, 2).to_f
    assert_equal Rational(7, 2), Rational(7, 2).to_r
    assert_equal 3, Integer(Rational(7, 2))
    assert_equal 3.5, Float(Rational(7, 2))
    assert_equal 0.5, Math.sqrt(Rational(1, 4))
    assert_equal [1, 2], [Rational(1, 2).numerator, 0.5.denominator]
    assert_equal [5, 1], [5.numerator, 5.denominator]
  end

  def test_predicates_and_class
    assert Rational(1, 2).frozen?
    r = Rational(1, 2)
    assert_same r, r.dup
    assert_same r, r.clone
    assert_equal [], r.instance_variables
    assert_equal Numeric, Rational.superclass
    assert Rational(1, 2).is_a?(Comparable)
    assert_equal [true, false, false, false], [Rational(0).zero?, Rational(1, 2).zero?, Rational(1, 2).integer?, Rational(-1, 2).positive?]
    assert Rational(-1, 2).negative?
    assert Rational(1, 2).real?
    assert_raise(NoMethodError) { Rational.new(1, 2) }
  end

  def test_rational_literals
    assert_equal Rational(3), 3r
    assert_equal Rational(1, 3), 1/3r
    assert_equal Rational(3, 2), 1.5r
    assert_equal Complex(0, Rational(2)), 2ri
  end

  # the exact decimal, as CRuby reads it (mruby made the Rational of the nearest Float)
  def test_decimal_literals
    assert_equal Rational(157, 50), 3.14r
    assert_equal Rational(1, 10), 0.1r
    assert_equal true, 0.1r + 0.2r == 0.3r
    assert_equal Rational(2001, 2), 1_000.5r
    assert_equal Rational(-1, 8), -0.125r
    assert_equal Complex(0, Rational(1, 2)), 0.5ri
    assert_equal Rational(12345678901234567890123, 1000), 12345678901234567890.123r
  end

  def test_array_sum_stays_exact
    assert_equal Rational(3), [1r, 2r].sum
    assert_equal Rational(4), [1, 2r].sum(1)
    assert_equal 4.0, [1, 2r].sum(1.0)
    assert_equal 56.0, (1..10).sum(1r)
    assert_equal Rational(11, 6), (1..3).sum { |x| Rational(1, x) }
  end

  def test_methods_taking_a_number_take_a_rational
    assert_equal 3, Kernel.Integer(Rational(7, 2))
    assert_equal 0.25, Kernel.Float(Rational(1, 4))
    assert_equal 500000, Time.at(Rational(3, 2)).usec
    assert_equal 500000, (Time.at(0) + Rational(1, 2)).usec
    assert_equal 500000, (Time.at(1) - Rational(1, 2)).usec
    assert_equal Thread, Thread.new { 1 }.join(Rational(1, 2)).class
    assert_nil IO.select(nil, nil, nil, Rational(1, 100))
    assert_equal "0.333", format("%.3f", Rational(1, 3))
    assert_equal "0.33 x", "%.2f %s" % [Rational(1, 3), "x"]
    assert_equal 2, rand(Rational(3)).class == Integer ? 2 : 0
    assert_equal 0.7853981633974483, Math.atan2(Rational(1), 1)
  end

  def test_marshal_round_trip_in_cruby_format
    assert_equal "\x04\bU:\rRational[\ai\x06i\a".b, Marshal.dump(Rational(1, 2))
    assert_equal Rational(1, 2), Marshal.load(Marshal.dump(Rational(1, 2)))
    assert_equal Rational(B, 3), Marshal.load(Marshal.dump(Rational(B, 3)))
    assert Marshal.load(Marshal.dump(Rational(1, 2))).frozen?
  end

  def test_a_bignum_rational_crosses_a_ractor
    r = Ractor.new(Rational(B, 3)) { |x| [x * 3, x.frozen?, Ractor.shareable?(x), x.class] }
    assert_equal [B, true, true, Rational], r.take
  end

  # CRuby's coerce protocol: Integer and Float ask an unknown operand to coerce them
  class Meters < Numeric
    attr_reader :n
    def initialize(n) = @n = n
    def coerce(other) = [Meters.new(other), self]
    def +(o) = Meters.new(n + (o.is_a?(Meters) ? o.n : o))
    def <=>(o) = n <=> (o.is_a?(Meters) ? o.n : o)
  end

  def test_integer_and_float_operators_coerce_other_numerics
    assert_equal 5, (2 + Meters.new(3)).n
    assert_equal 5.5, (2.5 + Meters.new(3)).n
    assert_equal(-1, 2 <=> Meters.new(3))
    assert_equal true, 2 < Meters.new(3)
    e = assert_raise(TypeError) { 1 + Object.new }
    assert_equal "Object can't be coerced into Integer", e.message
  end

  # Rational(a, b) with a Numeric of the program's own (no #to_r) is a / b, its own division
  # (CRuby's nurat_convert); alone it cannot be converted.
  class OwnNumeric < Numeric
    def /(other) = [:divided_by, other]
  end

  def test_kernel_rational_divides_an_own_numeric
    assert_equal [:divided_by, 0], Rational(OwnNumeric.new, 0)
    assert_equal [:divided_by, 3], Rational(OwnNumeric.new, 3)
    assert_raise(TypeError) { Rational(OwnNumeric.new) }
  end
end
