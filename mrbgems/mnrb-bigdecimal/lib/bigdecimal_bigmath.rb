# BigMath.exp and BigMath.log, loaded with "bigdecimal" (CRuby's are part of its C extension);
# "bigdecimal/math" adds the rest (bigdecimal_math.rb). Each is computed in fixed point on
# Integers (v stands for v / 10**w) with guard digits past the precision asked, then rounded once
# with BigDecimal.mode's rounding: exp to prec significant digits, as CRuby's; log, PI and the
# trigonometric functions to prec + 16 (CRuby returns about that many more, its last ones inexact).
module BigMath
  EXTRA_DIGITS = 16     # the digits past prec that log, PI, sin, cos and atan return
  GUARD_DIGITS = 20     # the digits past those computed and dropped at the rounding
  private_constant :EXTRA_DIGITS, :GUARD_DIGITS

  module_function

  def exp(x, prec)
    prec = __precision(prec, "exp")
    x = __operand(x)
    return x if x.nan?
    return x > 0 ? x : BigDecimal("0") if x.infinite?
    return BigDecimal("1") if x.zero?
    r = x.to_r
    n = r.round                       # exp(x) = exp(f) * e**n, |f| <= 1/2
    w = prec + GUARD_DIGITS + n.abs.to_s.size
    v = __decimal(__exp_fixed(r - n, w), w)
    unless n == 0
      en = __power(__decimal(__exp_fixed(1, w), w), n.abs, w)
      v = n > 0 ? v.mult(en, w) : v.div(en, w)
    end
    v.mult(1, prec)
  end

  def log(x, prec)
    prec = __precision(prec, "exp")   # CRuby's message names exp here too
    x = __operand(x)
    return x if x.nan?
    raise Math::DomainError, "Zero or negative argument for log" if x.zero? || x < 0
    return x if x.infinite?
    return BigDecimal("0") if x == 1
    k = x.exponent                    # x = y * 10**k, y in [0.1, 1)
    y = x.to_r / Rational(10)**k
    j = 0
    while y < Rational(1, 2)          # y * 2**j in [0.5, 1)
      y *= 2
      j += 1
    end
    near_one = [-(x - 1).exponent, 0].max   # the leading zeros of log(x) near 1
    w = prec + EXTRA_DIGITS + GUARD_DIGITS + k.abs.to_s.size + near_one
    ln2 = 2 * __atanh_fixed(Rational(1, 3), w)
    v = 2 * __atanh_fixed((y - 1) / (y + 1), w) - j * ln2
    v += k * (3 * ln2 + 2 * __atanh_fixed(Rational(1, 9), w)) unless k == 0   # log 10 = 3 log 2 + log 1.25
    __decimal(v, w).mult(1, prec + EXTRA_DIGITS)
  end

  # --- fixed point (private to BigMath) ---

  def __precision(prec, name)
    n = prec.is_a?(Integer) ? prec : Integer(prec.to_i)
    raise ArgumentError, "Zero or negative precision for #{name}" if n <= 0
    n
  end

  def __operand(x)
    case x
    when BigDecimal then x
    when Integer then BigDecimal(x)
    when Float then BigDecimal(x, 0)
    when Rational then BigDecimal(x, BigDecimal.double_fig * 2)
    else raise ArgumentError, "#{x.class} can't be coerced into BigDecimal"
    end
  end

  # a / b rounded toward zero (b > 0): the error of each fixed-point step stays under one unit
  def __tdiv(a, b) = a >= 0 ? a / b : -(-a / b)

  # the Rational r at scale w
  def __fixed(r, w) = __tdiv(r.numerator * 10**w, r.denominator)

  def __decimal(v, w) = BigDecimal(v) * BigDecimal("1e-#{w}")

  # b**n (n > 0) with every product rounded to w digits
  def __power(b, n, w)
    result = nil
    while n > 0
      result = result ? result.mult(b, w) : b if n.odd?
      n >>= 1
      b = b.mult(b, w) if n > 0
    end
    result
  end

  # exp(r) for a small Rational r: the Taylor series
  def __exp_fixed(r, w)
    one = 10**w
    p = r.numerator
    q = r.denominator
    sum = term = one
    k = 1
    until (term = __tdiv(term * p, q * k)) == 0
      sum += term
      k += 1
    end
    sum
  end

  # atanh(z) = z + z**3/3 + z**5/5 + ... for a Rational |z| < 1
  def __atanh_fixed(z, w)
    p2 = z.numerator**2
    q2 = z.denominator**2
    power = sum = __fixed(z, w)
    i = 1
    until (power = __tdiv(power * p2, q2)) == 0
      sum += __tdiv(power, 2 * i + 1)
      i += 1
    end
    sum
  end

  private_class_method :__precision, :__operand, :__tdiv, :__fixed, :__decimal, :__power, :__exp_fixed,
                       :__atanh_fixed
end
