# "bigdecimal/math": BigMath.sqrt, sin, cos, atan, PI and E, as CRuby's (module functions, so
# `include BigMath` gives them too), on bigdecimal_bigmath.rb's fixed point. sin and cos reduce
# their argument modulo 2 pi first, so large arguments keep their digits.
module BigMath
  module_function

  def sqrt(x, prec)
    x.sqrt(prec)
  end

  def PI(prec)
    prec = __precision(prec, "PI")
    w = prec + EXTRA_DIGITS + GUARD_DIGITS
    __decimal(__pi_fixed(w), w).mult(1, prec + EXTRA_DIGITS)
  end

  def E(prec)
    exp(1, __precision(prec, "E"))
  end

  def sin(x, prec)
    __trig(x, prec, "sin", 1)
  end

  def cos(x, prec)
    __trig(x, prec, "cos", 0)
  end

  def atan(x, prec)
    prec = __precision(prec, "atan")
    x = __operand(x)
    return x if x.nan?
    w = prec + EXTRA_DIGITS + GUARD_DIGITS + [-x.exponent, 0].max
    if x.infinite?
      v = __pi_fixed(w) / 2
      return __decimal(x > 0 ? v : -v, w).mult(1, prec + EXTRA_DIGITS)
    end
    return BigDecimal("0") if x.zero?
    r = x.to_r
    v = if r.abs > 1                                # atan x = +-pi/2 - atan(1/x)
      half_pi = __pi_fixed(w) / 2
      (r > 0 ? half_pi : -half_pi) - __atan_small(__fixed(1 / r, w), w)
    else
      __atan_small(__fixed(r, w), w)
    end
    __decimal(v, w).mult(1, prec + EXTRA_DIGITS)
  end

  # --- private to BigMath ---

  # pi = 16 atan(1/5) - 4 atan(1/239) (Machin)
  def __pi_fixed(w)
    16 * __atan_inverse(5, w) - 4 * __atan_inverse(239, w)
  end

  # atan(1/n) = 1/n - 1/(3 n**3) + 1/(5 n**5) - ...
  def __atan_inverse(n, w)
    power = 10**w / n
    sum = power
    n2 = n * n
    i = 1
    until (power /= n2) == 0
      term = power / (2 * i + 1)
      sum += i.odd? ? -term : term
      i += 1
    end
    sum
  end

  # atan of a fixed-point |t| <= 1: halved twice (atan t = 2 atan(t / (1 + sqrt(1 + t**2))))
  # to |t| < 0.21, then its series t - t**3/3 + t**5/5 - ...
  def __atan_small(t, w)
    one = 10**w
    2.times { t = __tdiv(t * one, one + Integer.sqrt(one * one + t * t)) }
    sum = power = t
    t2 = t * t
    i = 1
    until (power = __tdiv(power * t2, one * one)) == 0
      term = __tdiv(power, 2 * i + 1)
      sum += i.odd? ? -term : term
      i += 1
    end
    4 * sum
  end

  # sin (first 1) or cos (first 0) of x: x reduced into [-pi, pi], then the Taylor series
  def __trig(x, prec, name, first)
    prec = __precision(prec, name)
    x = __operand(x)
    return BigDecimal::NAN if x.nan? || x.infinite?
    return BigDecimal(1 - first) if x.zero?
    w = prec + EXTRA_DIGITS + GUARD_DIGITS + [x.exponent, 0].max + [-x.exponent, 0].max
    one = 10**w
    two_pi = 2 * __pi_fixed(w)
    t = __fixed(x.to_r, w) % two_pi
    t -= two_pi if t > two_pi / 2
    term = first == 1 ? t : one
    sum = term
    k = first                                       # term: (-1)**j t**k / k!
    until (term = __tdiv(-term * t * t, one * one * (k + 1) * (k + 2))) == 0
      sum += term
      k += 2
    end
    sum == 0 ? BigDecimal("0") : __decimal(sum, w).mult(1, prec + EXTRA_DIGITS)
  end

  private_class_method :__pi_fixed, :__atan_inverse, :__atan_small, :__trig
end
