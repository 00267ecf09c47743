# BigMath (CRuby's bigdecimal: exp and log with "bigdecimal", sqrt, sin, cos, atan, PI and E with
# "bigdecimal/math"): each result is checked against the true value to the precision asked (CRuby's
# digits past it differ from mnrb's, which are correct), with CRuby's errors. Expected values:
# CRuby 3.1 and 3.3.8.
require "bigdecimal/math"

class BigmathTest < MnTest::Case
  PI50 = BigDecimal("3.14159265358979323846264338327950288419716939937510")
  E50 = BigDecimal("2.71828182845904523536028747135266249775724709369995")
  LN2 = BigDecimal("0.69314718055994530941723212145817656807550013436025")
  LN10 = BigDecimal("2.30258509299404568401799145468436420760110148862877")

  def assert_digits(expected, actual, digits)
    err = (actual - expected).abs
    bound = expected.abs * BigDecimal("1e-#{digits}")
    bound = BigDecimal("1e-#{digits}") if bound.zero?
    assert err <= bound, "#{actual} differs from #{expected} past #{digits} digits"
  end

  def test_pi
    assert_digits PI50, BigMath.PI(10), 10
    assert_digits PI50, BigMath.PI(40), 40
  end

  def test_e
    assert_equal "0.27183e1", BigMath.E(5).to_s
    assert_digits E50, BigMath.E(40), 39
  end

  def test_exp_rounds_to_the_precision
    assert_equal "0.2718281828e1", BigMath.exp(BigDecimal("1"), 10).to_s
    assert_equal "0.2718281828e1", BigMath.exp(1, 10).to_s
    assert_equal "0.448168907e1", BigMath.exp(1.5, 10).to_s
    assert_equal "0.3678794412e0", BigMath.exp(BigDecimal("-1"), 10).to_s
    assert_equal "0.1e1", BigMath.exp(BigDecimal("0"), 10).to_s
  end

  def test_exp_of_a_large_argument
    # e**100 = 2.688117141816135448412625551580013587361111877374192241519...e43
    assert_equal BigDecimal("0.26881171418161354484e44"), BigMath.exp(BigDecimal("100"), 20)
  end

  def test_exp_specials
    assert BigMath.exp(BigDecimal("NaN"), 10).nan?
    assert_equal BigDecimal::INFINITY, BigMath.exp(BigDecimal("Infinity"), 10)
    assert_equal 0, BigMath.exp(BigDecimal("-Infinity"), 10)
  end

  def test_log
    assert_digits LN2, BigMath.log(BigDecimal("2"), 10), 10
    assert_digits LN10, BigMath.log(10, 40), 40
    assert_digits -LN2, BigMath.log(BigDecimal("0.5"), 30), 30
    assert_digits BigDecimal("1e-20"), BigMath.log(BigDecimal("1.00000000000000000001"), 20), 19
    assert_equal 0, BigMath.log(1, 10)
  end

  def test_exp_and_log_invert
    x = BigDecimal("123.456")
    assert_digits x, BigMath.exp(BigMath.log(x, 40), 40), 35
  end

  def test_sqrt
    assert_digits BigDecimal("1.41421356237309504880168872420969807856967187537694"), BigMath.sqrt(BigDecimal("2"), 30), 30
  end

  def test_sin_cos
    # sin 1, cos 1, sin 100
    assert_digits BigDecimal("0.84147098480789650665250232163029899962256306079837"), BigMath.sin(BigDecimal("1"), 30), 30
    assert_digits BigDecimal("0.54030230586813971740093660744297660373231042061792"), BigMath.cos(BigDecimal("1"), 30), 30
    assert_digits BigDecimal("-0.50636564110975879365655761045978543206503272129065"), BigMath.sin(BigDecimal("100"), 30), 30
    assert_equal 0, BigMath.sin(BigDecimal("0"), 10)
    assert_equal 1, BigMath.cos(BigDecimal("0"), 10)
  end

  def test_atan
    assert_digits PI50 / 4, BigMath.atan(BigDecimal("1"), 30), 30
    # atan(-2) = -1.10714871779409050301706546017853704007004764540143...
    assert_digits BigDecimal("-1.10714871779409050301706546017853704007004764540143"), BigMath.atan(BigDecimal("-2"), 30), 30
    assert_digits BigDecimal("0.09966865249116202737844611987802059024327832250431"), BigMath.atan(BigDecimal("0.1"), 30), 30
  end

  def test_errors
    e = assert_raise(ArgumentError) { BigMath.PI(0) }
    assert_equal "Zero or negative precision for PI", e.message
    assert_raise(ArgumentError) { BigMath.exp(1, 0) }
    e = assert_raise(Math::DomainError) { BigMath.log(BigDecimal("0"), 10) }
    assert_equal "Zero or negative argument for log", e.message
    assert_raise(Math::DomainError) { BigMath.log(BigDecimal("-1"), 10) }
  end

  def test_module_functions
    assert_equal %i[E PI atan cos exp log sin sqrt], BigMath.singleton_methods.sort
    o = Object.new.extend(BigMath)
    assert_digits PI50, o.__send__(:PI, 10), 10
  end
end
