class Integer
  # [gcd, lcm] of self and other.
  def gcdlcm(other)
    [gcd(other), lcm(other)]
  end
end

# A real number seen as a complex one (CRuby's Numeric): mruby 3.3 has these on Complex only, and
# code written for any Numeric (matrix's Vector#inner_product calls conj) needs them everywhere.
class Numeric
  def real = self
  def imaginary = 0
  def imag = 0
  def conj = self
  def conjugate = self
  def rectangular = [self, 0]
  def rect = [self, 0]
  def abs2 = self * self
  def real? = true
  def polar = [abs, arg]

  # pi for a negative number (and -0.0), 0 otherwise; NaN for NaN
  def arg
    return self if is_a?(Float) && nan?
    negative? || (is_a?(Float) && zero? && 1.0 / self < 0) ? Math::PI : 0
  end
  alias_method :angle, :arg
  alias_method :phase, :arg
end

class Integer
  def numerator = self
  def denominator = 1

  def coerce(other)
    other.is_a?(Integer) ? [other, self] : [Float(other), to_f]
  end
end

class Float
  def numerator = to_r.numerator
  def denominator = to_r.denominator
  def coerce(other) = [Float(other), self]
end
