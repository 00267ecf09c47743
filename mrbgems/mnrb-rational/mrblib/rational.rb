# Rational as CRuby's: an Integer numerator and a positive Integer denominator of any size,
# coprime, in a frozen object. Arithmetic with Integers stays exact; with a Float it is a Float.
# Integer and Float operators reach these methods through coerce (src/coerce.c).
class Rational < Numeric
  # Rational.__new_raw(n, d) and Rational.__reduce(n, d) are src/rational_new.c
  class << self
    undef_method :new
  end

  attr_reader :numerator, :denominator

  # how CRuby's messages name an operand: nil, true, false and Symbols inspected, else the class
  def self.__operand_name(o) = o.nil? || o == true || o == false || o.is_a?(Symbol) ? o.inspect : o.class.to_s

  def self.__exact(x)
    case x
    when Integer then __new_raw(x, 1)
    when Rational then x
    when Float then x.to_r
    else x
    end
  end

  # -- arithmetic --------------------------------------------------------------------------

  def +(o)
    case o
    when Integer then Rational.__new_raw(@numerator + o * @denominator, @denominator)
    when Rational
      Rational.__reduce(@numerator * o.denominator + o.numerator * @denominator, @denominator * o.denominator)
    when Float then to_f + o
    else __coerced(:+, o)
    end
  end

  def -(o)
    case o
    when Integer then Rational.__new_raw(@numerator - o * @denominator, @denominator)
    when Rational
      Rational.__reduce(@numerator * o.denominator - o.numerator * @denominator, @denominator * o.denominator)
    when Float then to_f - o
    else __coerced(:-, o)
    end
  end

  def *(o)
    case o
    when Integer then Rational.__reduce(@numerator * o, @denominator)
    when Rational then Rational.__reduce(@numerator * o.numerator, @denominator * o.denominator)
    when Float then to_f * o
    else __coerced(:*, o)
    end
  end

  def /(o)
    case o
    when Integer
      raise ZeroDivisionError, "divided by 0" if o == 0
      Rational.__reduce(@numerator, @denominator * o)
    when Rational
      raise ZeroDivisionError, "divided by 0" if o.numerator == 0
      Rational.__reduce(@numerator * o.denominator, @denominator * o.numerator)
    when Float then to_f / o
    else __coerced(:/, o)
    end
  end
  alias_method :quo, :/

  def fdiv(o)
    return to_f / o.to_f if o.is_a?(Float) || o == 0   # Infinity / NaN, not ZeroDivisionError
    (self / o).to_f
  end

  def -@ = Rational.__new_raw(-@numerator, @denominator)
  def +@ = self

  def **(o)
    if o.is_a?(Rational) && o.denominator == 1
      o = o.numerator
    end
    if o.is_a?(Integer)
      return Rational.__new_raw(1, 1) if o == 0
      if @denominator == 1 && (@numerator == 1 || @numerator == -1)
        return Rational.__new_raw(@numerator == 1 || o.even? ? 1 : -1, 1)
      end
      if o > 0
        Rational.__new_raw(@numerator ** o, @denominator ** o)
      else
        raise ZeroDivisionError, "divided by 0" if @numerator == 0
        Rational.__reduce(@denominator ** -o, @numerator ** -o)
      end
    elsif o.is_a?(Rational)
      return Rational.__new_raw(1, 1) if self == 1             # exact for exact bases 1 and 0
      if @numerator == 0
        raise ZeroDivisionError, "divided by 0" if o < 0
        return Rational.__new_raw(0, 1)
      end
      to_f ** o.to_f
    elsif o.is_a?(Float)
      to_f ** o
    elsif o.is_a?(Numeric)
      __coerced(:**, o)
    else
      raise TypeError, "#{Rational.__operand_name(o)} can't be coerced into Rational"
    end
  end

  def div(o)
    raise ZeroDivisionError, "divided by 0" if o == 0   # a Float 0.0 too, as CRuby
    (self / o).floor
  end

  def modulo(o)
    self - o * div(o)
  end
  alias_method :%, :modulo

  def divmod(o)
    q = div(o)
    [q, self - o * q]
  end

  def remainder(o)
    self - o * (self / o).truncate
  end

  def abs = @numerator < 0 ? -self : self
  alias_method :magnitude, :abs

  # -- comparison --------------------------------------------------------------------------

  def <=>(o)
    case o
    when Integer then (@numerator <=> o * @denominator)
    when Rational then (@numerator * o.denominator <=> o.numerator * @denominator)
    when Float then to_f <=> o
    else
      return nil unless o.respond_to?(:coerce)
      a, b = o.coerce(self)
      a <=> b
    end
  end

  def ==(o)
    case o
    when Integer then @denominator == 1 && @numerator == o
    when Rational then @numerator == o.numerator && @denominator == o.denominator
    when Float then to_f == o
    else o == self
    end
  end

  def eql?(o) = o.is_a?(Rational) && self == o
  def hash = [Rational, @numerator, @denominator].hash

  def coerce(o)
    case o
    when Integer then [Rational.__new_raw(o, 1), self]
    when Float then [o, to_f]
    when Rational then [o, self]
    when Complex
      return [o, Complex.rect(self, 0)] unless o.imaginary.is_a?(Integer) && o.imaginary == 0
      [Rational.__exact(o.real), self]
    else raise TypeError, "#{o.class} can't be coerced into Rational"
    end
  end

  def zero? = @numerator == 0
  def positive? = @numerator > 0
  def negative? = @numerator < 0
  def integer? = false
  def finite? = true
  def infinite? = nil

  # -- conversion --------------------------------------------------------------------------

  def to_i = @numerator < 0 ? -(-@numerator).div(@denominator) : @numerator.div(@denominator)
  def to_f = @numerator.fdiv(@denominator)
  def to_r = self
  def to_s = "#{@numerator}/#{@denominator}"
  def inspect = "(#{@numerator}/#{@denominator})"

  def rationalize(eps = (none = true))
    return self if none
    Rational.__simplest_within(self, eps) || self
  end

  # The simplest rational in [x - |eps|, x + |eps|] (smallest denominator), nil if that is x.
  def self.__simplest_within(x, eps)
    e = eps.abs
    neg = x.negative?
    x = -x if neg
    lo = x - e
    hi = x + e
    return nil if lo == hi
    n, d = __simplest_between(lo, hi)   # in Float arithmetic if x or eps is a Float, as CRuby
    __reduce(neg ? -n : n, d)
  end

  # [n, d] of the simplest fraction in [lo, hi], lo < hi, by continued fractions
  def self.__simplest_between(lo, hi)
    c = lo.ceil
    return [c, 1] if c < hi
    k = c - 1
    p1, q1 = __simplest_between(1 / (hi - k), 1 / (lo - k))
    [k * p1 + q1, p1]
  end

  # -- rounding: to an Integer, or a Rational with digits > 0 --------------------------------

  def floor(digits = nil) = __round_to(digits) { |r| r.__floor_i }
  def ceil(digits = nil) = __round_to(digits) { |r| -(-r).__floor_i }
  def truncate(digits = nil) = __round_to(digits) { |r| r.to_i }

  def round(digits = nil, half: nil)
    mode = __half_mode(half)
    __round_to(digits) { |r| r.__round_i(mode) }
  end

  def __floor_i = @numerator.div(@denominator)

  def __round_i(mode)
    n = @numerator.abs
    q, r = (n * 2 + @denominator).divmod(@denominator * 2)
    if r == 0                       # exactly halfway
      case mode
      when :even then q -= 1 if q.odd?
      when :down then q -= 1
      end
    end
    @numerator < 0 ? -q : q
  end

  def __round_to(digits)
    return yield(self) if digits.nil?
    raise TypeError, "not an integer" unless digits.is_a?(Integer)
    s = 10 ** digits.abs
    s = Rational.__new_raw(1, s) if digits < 0
    r = Rational.__exact(yield(self * s)) / s
    digits < 1 ? r.to_i : r
  end

  def __coerced(op, o)
    raise TypeError, "#{Rational.__operand_name(o)} can't be coerced into Rational" unless o.respond_to?(:coerce)
    a, b = o.coerce(self)
    a.__send__(op, b)
  end

  # immutable values: a copy is the value itself, and the parts are not instance variables
  def dup = self
  def clone(freeze: true) = self
  def instance_variables = []

  def marshal_dump = [@numerator, @denominator]

  def marshal_load(a)
    raise ArgumentError, "marshaled rational must have an array whose length is 2 but #{a.size}" unless a.size == 2
    raise ZeroDivisionError, "divided by 0" if a[1] == 0
    @numerator, @denominator = a
    freeze
  end
  private :marshal_dump, :marshal_load
end

# What CRuby's Numeric gives every subclass (Rational and Complex among them) in terms of the
# subclass's own operators. Integer and Float define their own.
class Numeric
  def to_int = to_i
  def magnitude = abs
  def div(o)
    raise ZeroDivisionError, "divided by 0" if o == 0   # before the division, as CRuby's
    (self / o).floor
  end

  def modulo(o) = self - o * div(o)
  alias_method :%, :modulo
  def divmod(o) = [div(o), modulo(o)]
  def remainder(o) = self - o * (self / o).truncate
  def quo(o) = Rational(self) / o
  def fdiv(o) = to_f / o
  def floor(digits = 0) = to_f.floor(digits)
  def ceil(digits = 0) = to_f.ceil(digits)
  def round(digits = 0, **kw) = kw.empty? ? to_f.round(digits) : to_f.round(digits, **kw)
  def truncate(digits = 0) = to_f.truncate(digits)
  def numerator = to_r.numerator
  def denominator = to_r.denominator

  def coerce(o)
    return [o, self] if o.class == self.class
    [Float(o), Float(self)]
  end
end

module Kernel
  def Rational(a, b = (one = true), exception: true)
    if exception
      Rational.__convert(a, b, one)
    else
      begin
        Rational.__convert(a, b, one)
      rescue ArgumentError, TypeError, RangeError
        nil
      end
    end
  end
  module_function :Rational
end

class Rational
  def self.__convert(a, b, one)
    raise TypeError, "can't convert nil into Rational" if a.nil? || (!one && b.nil?)
    if !one && a.is_a?(Numeric) && b.is_a?(Numeric) && !a.respond_to?(:to_r)
      return a / b       # a Numeric of the program's own (CRuby: a1 / a2, its own #/)
    end
    a = __to_exact(a)
    return (a.is_a?(Integer) ? __new_raw(a, 1) : a) if one
    b = __to_exact(b)
    if a.is_a?(Integer) && b.is_a?(Integer)
      __reduce(a, b)
    elsif b.is_a?(Integer) || b.is_a?(Rational)
      a = __new_raw(a, 1) if a.is_a?(Integer)
      a / b
    else
      a.quo(b)
    end
  end

  def self.__to_exact(x)
    case x
    when Integer, Rational then x
    when Float then x.to_r
    when String then __parse(x, true)
    when Complex
      unless x.imaginary.is_a?(Integer) && x.imaginary == 0 || x.imaginary.is_a?(Rational) && x.imaginary == 0
        raise RangeError, "can't convert #{x} into Rational"
      end
      __to_exact(x.real)
    else
      raise TypeError, "can't convert #{x.class} into Rational" unless x.respond_to?(:to_r)
      r = x.to_r
      raise TypeError, "can't convert #{x.class} into Rational" unless r.is_a?(Rational) || r.is_a?(Integer)
      r
    end
  end

  # the Rational a string spells; strict (Kernel#Rational) or a prefix (String#to_r). The patterns
  # are literals here, not constants: a literal is compiled at its first use and kept by its site,
  # while a constant's Regexp was compiled at boot by every state (every ractor), used or not.
  def self.__parse(str, strict)
    str = str.sub(".", "") if strict && str.match?(/\A\s*[-+]?\d+(?:_\d+)*\.\s*\z/)   # "5." is 5 (CRuby)
    m = if strict
      /\A\s*([-+])?(\d+(?:_\d+)*)?(?:\.(\d+(?:_\d+)*))?(?:[eE]([-+]?\d+(?:_\d+)*))?(?:\/(\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?(?:[eE][-+]?\d+(?:_\d+)*)?))?\s*\z/.match(str)
    else
      /\A\s*([-+])?(\d+(?:_\d+)*)?(?:\.(\d+(?:_\d+)*))?(?:[eE]([-+]?\d+(?:_\d+)*))?(?:\/(\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?(?:[eE][-+]?\d+(?:_\d+)*)?))?/.match(str)
    end
    if m.nil? || (m[2].nil? && m[3].nil?)
      raise ArgumentError, "invalid value for convert(): #{str.inspect}" if strict
      return __new_raw(0, 1)
    end
    r = __decimal(m[2], m[3], m[4])
    r = -r if m[1] == "-"
    return r unless m[5]
    r / (m[5].include?(".") || m[5] =~ /[eE]/ ? __parse(m[5], true) : m[5].delete("_").to_i)
  end

  def self.__decimal(int, frac, exp)
    n = (int ? int.delete("_") : "0")
    d = 1
    if frac
      f = frac.delete("_")
      n += f
      d = 10 ** f.length
    end
    n = n.to_i
    if exp
      e = exp.delete("_").to_i
      e >= 0 ? n *= 10 ** e : d *= 10 ** -e
    end
    __reduce(n, d)
  end
end

class Integer
  def finite? = true
  def infinite? = nil
  def to_r = Rational.__new_raw(self, 1)
  def rationalize(eps = nil) = Rational.__new_raw(self, 1)

  # exact: a Rational for an Integer divisor (CRuby)
  def quo(o)
    case o
    when Integer then Rational.__reduce(self, o)
    when Float then fdiv(o)
    else Rational.__new_raw(self, 1) / o
    end
  end
end

class Float
  # the exact value of the Float as a Rational
  def to_r
    raise FloatDomainError, (nan? ? "NaN" : self > 0 ? "Infinity" : "-Infinity") unless finite?
    return Rational.__new_raw(0, 1) if self == 0
    m, e = Math.frexp(self)
    n = (m * 9007199254740992).to_i   # 2**53: the whole significand as an Integer
    e -= 53
    e >= 0 ? Rational.__new_raw(n << e, 1) : Rational.__reduce(n, 1 << -e)
  end

  # the simplest Rational that rounds to this Float (or within eps of it)
  def rationalize(eps = (none = true))
    raise FloatDomainError, (nan? ? "NaN" : self > 0 ? "Infinity" : "-Infinity") unless finite?
    return Rational.__simplest_within(self, eps) || to_r unless none
    return Rational.__new_raw(0, 1) if self == 0
    m, e = Math.frexp(self)
    n = (m * 9007199254740992).to_i
    e -= 53
    return Rational.__new_raw(n << e, 1) if e >= 0
    # the interval of reals that round to self: (2n - 1) / 2^(1-e) .. (2n + 1) / 2^(1-e)
    den = 1 << (1 - e)
    neg = n < 0
    n = -n if neg
    p1, q1 = Rational.__simplest_between(Rational.__reduce(2 * n - 1, den), Rational.__reduce(2 * n + 1, den))
    Rational.__reduce(neg ? -p1 : p1, q1)
  end

  def numerator = finite? ? to_r.numerator : self
  def denominator = finite? ? to_r.denominator : (nan? ? self : 1.0)
  def quo(o) = self / o
end

class String
  def to_r = Rational.__parse(self, false)
end

class NilClass
  def to_r = Rational.__new_raw(0, 1)
  def rationalize(eps = nil) = Rational.__new_raw(0, 1)
end
