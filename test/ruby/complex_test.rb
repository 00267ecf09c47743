# Complex as CRuby's core class: parts of any real kind kept as given (Integer, Rational, Float),
# Kernel#Complex with strings and exception: false, exact arithmetic on exact parts, polar form,
# formatting, comparison, coerce with Integer and Float, and CRuby's exceptions. Expected values
# are CRuby 3.1's (this file passes there too); where 3.4 documents a difference (Complex#to_r of
# a Float 0.0 imaginary part) the test checks the newer behaviour when RUBY_VERSION says so.

class ComplexTest < MnTest::Case
  def newer_than_3_3? = RUBY_VERSION >= "3.4" || mnrb?   # mnrb (RUBY_VERSION "3.3") follows 3.4 here

  def test_parts_keep_their_kind
    assert_equal "(1+2i)", Complex(1, 2).inspect
    assert_equal Integer, Complex(1, 2).real.class
    assert_equal Integer, Complex(1, 2).imaginary.class
    assert_equal "(1.0+0i)", Complex(1.0).inspect
    assert_equal "(1+(2/1)*i)", Complex(1, 2r).inspect
    assert_equal "((1/3)+2i)", Complex(1r / 3, 2).inspect
    assert_equal [2**70, 1], Complex(2**70, 1).rect
    assert Complex(1, 2).frozen?
    c = Complex(1, 2)
    assert_same c, c.dup
    assert_equal [], c.instance_variables
    assert_equal Numeric, Complex.superclass
  end

  def test_to_s_and_inspect
    assert_equal "1+2i", Complex(1, 2).to_s
    assert_equal "1-2i", Complex(1, -2).to_s
    assert_equal "1.0-0.0i", Complex(1.0, -0.0).to_s
    assert_equal "(1+NaN*i)", Complex(1, Float::NAN).inspect
    assert_equal "(1-Infinity*i)", Complex(1, -Float::INFINITY).inspect
    assert_equal "((1/3)-(2/5)*i)", Complex(1r / 3, -2r / 5).inspect
    assert_equal "1/3-2/5i", Complex(1r / 3, -2r / 5).to_s
    assert_equal "(-0.0+2i)", Complex(-0.0, 2).inspect
    assert_equal "(1.0e+20+1.0e-05i)", Complex(1e20, 1e-5).inspect
  end

  def test_kernel_complex_with_strings
    assert_equal Complex(1, 2), Complex("1+2i")
    assert_equal Complex(0, 2), Complex("2i")
    assert_equal Complex(0, -1), Complex("-i")
    assert_equal Complex(1500.0, -2.5), Complex("1.5e3-2.5i")
    assert_equal "((1/3)+(2/5)*i)", Complex("1/3+2/5i").inspect
    assert_equal Complex(1, 2), Complex(" 1+2i ")
    assert_equal Complex(1, 2), Complex("1", "2")
    assert_equal Complex(1, 2), Complex("1", 2)
    assert_in_delta(-0.4161468365471424, Complex("1@2").real, 1e-15)
    e = assert_raise(ArgumentError) { Complex("x") }
    assert_equal 'invalid value for convert(): "x"', e.message
    assert_nil Complex("x", exception: false)
    assert_nil Complex(nil, exception: false)
  end

  def test_string_to_c_reads_a_prefix
    assert_equal Complex(1, 2), "1+2ix".to_c
    assert_equal Complex(0, 0), "x".to_c
    assert_equal Complex(3, 0), "3 apples".to_c
    assert_equal Complex(0, 0), nil.to_c
    assert_equal Complex(0, 1), "i".to_c
    assert_equal Complex(0, 1), Complex("I")
    assert_equal Complex(0, -1), Complex("-j")
    assert_equal Complex(0.5, 0), ".5".to_c
    assert_equal Complex(0, 0.5), Complex(".5i")
    assert_equal Complex(-100.0, 0), "-1e2".to_c
    assert_equal Complex(200000.0, 0.003), "2e5+3e-3i".to_c
  end

  def test_kernel_complex_conversions_and_errors
    assert_equal Complex(-3, 5), Complex(Complex(1, 2), Complex(3, 4))
    assert_equal Complex(5, 0), 5.to_c
    assert_equal "(1.5+0i)", 1.5.to_c.inspect
    assert_equal Complex(0, 3), 3.i
    e = assert_raise(TypeError) { Complex(nil) }
    assert_equal "can't convert nil into Complex", e.message
    assert_raise(TypeError) { Complex(1, nil) }
    e = assert_raise(TypeError) { Complex.rect(1, 2i) }
    assert_equal "not a real", e.message
    assert_raise(NoMethodError) { Complex.new(1, 2) }
  end

  def test_i_and_literals
    assert_equal Complex(0, 1), Complex::I
    assert_equal Complex(0, 2), 2i
    assert_equal Complex(3, 2), 3 + 2i
    assert_equal "(0.0+3.0i)", (1.5 * 2i).inspect
    assert_equal Complex(-4, 0), 2i**2
    assert_raise(NoMethodError) { Complex(1, 2).i }
  end

  def test_arithmetic
    assert_equal Complex(4, 6), Complex(1, 2) + Complex(3, 4)
    assert_equal Complex(0, 2), Complex(1, 2) - 1
    assert_equal Complex(-5, 10), Complex(1, 2) * Complex(3, 4)
    assert_equal "((3/2)+2i)", (Complex(1, 2) + 1r / 2).inspect
    assert_equal "(1.5+3.0i)", (Complex(1, 2) * 1.5).inspect
    assert_equal "(2.5+2i)", (1.5 + Complex(1, 2)).inspect
    assert_equal Complex(-1, -2), -Complex(1, 2)
    assert_equal "((1/2)+(1/1)*i)", (Rational(1, 2) * Complex(1, 2)).inspect
  end

  def test_division_is_exact_for_exact_parts
    assert_equal "((11/25)+(2/25)*i)", (Complex(1, 2) / Complex(3, 4)).inspect
    assert_equal "(0.44+0.08i)", (Complex(1.0, 2) / Complex(3, 4)).inspect
    assert_equal "((1/2)+1i)", (Complex(1, 2) / 2).inspect
    assert_equal "((3/2)+2i)", Complex(3, 4).quo(2).inspect
    assert_equal "(0.5+1.0i)", Complex(1, 2).fdiv(2).inspect
    assert_equal Complex(2, 1), Complex(4, 2) / 2
    e = assert_raise(ZeroDivisionError) { Complex(1, 2) / 0 }
    assert_equal "divided by 0", e.message
  end

  def test_exponentiation
    assert_equal Complex(-3, 4), Complex(1, 2)**2
    assert_equal "((-3/25)-(4/25)*i)", (Complex(1, 2)**-2).inspect
    assert_equal "(1+0i)", (Complex(1, 2)**0).inspect
    assert_equal Complex(1, 2), Complex(1, 2)**1r
    assert_equal Complex(4, 0), Complex(2, 0)**2
    assert_in_delta 1.272019649514069, (Complex(1, 2)**0.5).real, 1e-14
    assert_in_delta 0.7861513777574233, (Complex(1, 2)**0.5).imaginary, 1e-14
    c = Complex(1, 2)**Complex(1, 1)
    assert_in_delta(-0.24720004426291722, c.real, 1e-14)
    assert_in_delta 0.6964504870825432, c.imaginary, 1e-14
    r = Complex(-8)**(1r / 3)
    assert_in_delta 1.0, r.real, 1e-14
    assert_in_delta 1.7320508075688772, r.imaginary, 1e-14
    assert_in_delta 2.0, (4**Complex(0.5)).real, 1e-14
  end

  def test_negative_base_with_fractional_exponent_is_complex
    r = (-8)**(1.0 / 3)
    assert_equal Complex, r.class
    assert_in_delta 1.7320508075688772, r.imaginary, 1e-14
    assert_in_delta 2.8284271247461903, ((-8.0)**0.5).imaginary, 1e-14
    assert_equal 16.0, (-4)**2.0
    assert_equal "(0.0-5.196152422706632i)", ((-3)**1.5).inspect
    assert_equal "(0.0+0.021383343303319473i)", ((-3)**Rational(-7, 2)).inspect
  end

  def test_an_integer_zero_part_stays_exact_and_signed_zeros_survive
    assert_equal "(0.0+0i)", (0 * Complex(1.5, 2)).inspect
    assert_equal "(0.0+0i)", (Complex(1.5, 2) * 0).inspect
    assert_equal "(-0.0+1i)", (-0.0 + Complex(0, 1)).inspect
    assert_equal "(-0.0-0.0i)", (-0.0 * Complex(1, 2)).inspect
    assert_equal "(0.0+0.0i)", (0 / Complex(1.5, -2)).inspect
    assert_equal "((1/1)+2i)", (Rational(0) + Complex(1, 2)).inspect
  end

  def test_abs_arg_polar
    assert_equal 5.0, Complex(3, 4).abs
    assert_equal 25, Complex(3, 4).abs2
    assert_equal 0.9272952180016122, Complex(3, 4).arg
    assert_equal [5.0, 0.9272952180016122], Complex(3, 4).polar
    assert_equal 3, Complex(0, 3).abs
    assert_equal 3, Complex(3, 0).abs
    assert_equal 3.0, Complex(3.0, 0).abs
    assert_equal 3.0, Complex(0.0, 3).abs
    assert_equal Float, Complex(1, 2).abs.class
    assert_equal 0.0, Complex(0.0, 0.0).arg
    assert_equal Math::PI, Complex(-1, 0.0).arg
    assert_equal(-Math::PI, Complex(-1, -0.0).arg)
    assert_equal Math::PI / 4, Complex(1, 1).angle
    assert_equal Complex(1, -2), Complex(1, 2).conj
    assert_equal [1, 2], Complex(1, 2).rectangular
  end

  def test_polar_constructor
    assert_equal "(1+0i)", Complex.polar(1).inspect
    assert_in_delta 1.0806046117362795, Complex.polar(2, 1).real, 1e-15
    assert_in_delta 1.682941969615793, Complex.polar(2, 1).imaginary, 1e-15
    assert_equal(-1, Complex.polar(1, Math::PI).real)
    assert_equal Complex(1, 2), Complex.rect(1, 2)
    assert_equal Complex(1, 0), Complex.rectangular(1)
    assert_raise(TypeError) { Complex.polar(1i) }
  end

  def test_equality_and_comparison
    assert_equal true, Complex(1, 0) == 1
    assert_equal true, 1 == Complex(1, 0)
    assert_equal true, Complex(1, 2) == Complex(1.0, 2.0)
    assert_equal false, Complex(1, 2) == "a"
    assert_equal(-1, Complex(1, 0) <=> 2)
    assert_nil Complex(1, 1) <=> 1
    assert_nil Complex(1, 2) <=> Complex(1, 0)
    assert_equal 1, Complex(3, 0) <=> Complex(1, 0)
    assert_equal 0, Rational(3) <=> Complex(3)
    assert_equal 0, Complex(3) <=> Rational(3)
    assert_raise(NoMethodError) { Complex(1, 1) < 1 }
    assert !Complex(1, 2).respond_to?(:floor)
  end

  def test_hash_eql_and_coerce
    assert_equal Complex(1, 2).hash, Complex(1, 2).hash
    assert Complex(1, 2).eql?(Complex(1, 2))
    assert !Complex(1, 2).eql?(Complex(1.0, 2))
    assert_equal :x, { Complex(1, 2) => :x }[Complex(1, 2)]
    assert_equal [Complex(3, 0), Complex(1, 2)], Complex(1, 2).coerce(3)
    e = assert_raise(TypeError) { Complex(1, 2).coerce("a") }
    assert_equal "String can't be coerced into Complex", e.message
  end

  def test_conversions_need_a_zero_imaginary_part
    assert_equal 1, Complex(1, 0).to_i
    assert_equal 1.0, Complex(1, 0).to_f
    assert_equal Rational(3, 2), Complex(1.5, 0).to_r
    assert_equal Rational(1), Complex(1, 0).rationalize(0.1)
    e = assert_raise(RangeError) { Complex(1, 2).to_r }
    assert_equal "can't convert 1+2i into Rational", e.message
    e = assert_raise(RangeError) { Complex(1, 2).to_f }
    assert_equal "can't convert 1+2i into Float", e.message
    e = assert_raise(RangeError) { Complex(1, 0.0).to_i }
    assert_equal "can't convert 1+0.0i into Integer", e.message
    assert_raise(RangeError) { Complex(1, 2).rationalize }
    if newer_than_3_3?
      assert_equal Rational(1), Complex(1, 0.0).to_r   # 3.4: a Float 0.0 imaginary part is zero
    else
      assert_raise(RangeError) { Complex(1, 0.0).to_r }
    end
    assert_equal 3, Integer(Complex(3, 0))
    assert_equal 3.0, Float(Complex(3, 0))
  end

  def test_predicates_numerator_denominator
    assert_equal true, Complex(1, 2).finite?
    assert_equal 1, Complex(1, Float::INFINITY).infinite?
    assert_nil Complex(1, 2).infinite?
    assert_equal Complex(3, 2), Complex(1r / 2, 1r / 3).numerator
    assert_equal 6, Complex(1r / 2, 1r / 3).denominator
    assert_equal false, Complex(1, 2).real?
    assert_equal true, 1.real?
    assert_equal Complex(1, 2), Complex(1, 2).to_c
  end

  def test_math_sqrt_of_a_complex
    r = Math.sqrt(Complex(1, 1))
    assert_in_delta 1.09868411346781, r.real, 1e-14
    assert_in_delta 0.4550898605622274, r.imaginary, 1e-14
    e = assert_raise(RangeError) { Math.sin(Complex(1, 1)) }
    assert_equal "can't convert 1+1i into Float", e.message
    assert_in_delta 0.8414709848078965, Math.sin(Complex(1, 0)), 1e-15
  end
end
