# Complex as CRuby's: a real and an imaginary part, each any real Numeric (Integer of any size,
# Rational, Float), kept as given (Complex(1, 2) has Integer parts), in a frozen object. Exact parts
# stay exact through +, -, * and / (a quotient of Integers is a Rational, one with denominator 1
# an Integer again).
class Numeric
  def to_c = Complex.__new_raw(self, 0)
  def i = Complex.__new_raw(0, self)
end

class Complex < Numeric
  # Complex.__new_raw(re, im) is src/complex_init.c
  class << self
    undef_method :new
  end

  attr_reader :real, :imaginary
  alias_method :imag, :imaginary

  # what Complex has no meaning for (CRuby undefines them); src/complex_init.c says why not undef
  __undef_methods(:%, :<, :<=, :>, :>=, :between?, :clamp, :div, :divmod, :floor, :ceil, :modulo,
                  :remainder, :round, :step, :truncate, :i, :positive?, :negative?)
  class << self
    undef_method :__undef_methods
  end

  def self.__real?(x) = x.is_a?(Numeric) && !x.is_a?(Complex)

  def self.rectangular(re, im = 0)
    raise TypeError, "not a real" unless __real?(re) && __real?(im)
    __new_raw(re, im)
  end

  def self.rect(re, im = 0) = rectangular(re, im)

  def self.polar(r, theta = (none = true))
    raise TypeError, "not a real" unless __real?(r) && (none || __real?(theta))
    return __new_raw(r, 0) if none
    return __new_raw(r, 0.0) if r == 0 || theta == 0
    if theta.is_a?(Float)
      return __new_raw(-r, 0.0) if theta == Math::PI
      return __new_raw(0.0, r) if theta == Math::PI / 2
      return __new_raw(0.0, -r) if theta == -Math::PI / 2
      return __new_raw(r * Math.cos(theta), r * Math.sin(theta))
    end
    __new_raw(__canon(r * Math.cos(theta)), __canon(r * Math.sin(theta)))
  end

  # a Rational with denominator 1 as its Integer
  def self.__canon(x) = x.is_a?(Rational) && x.denominator == 1 ? x.numerator : x

  def self.__exact_zero?(x) = (x.is_a?(Integer) || x.is_a?(Rational)) && x == 0

  # x + y and x - y where an Integer 0 leaves the other part as it is (-0.0 + 0 stays -0.0), as
  # CRuby's Complex arithmetic does
  def self.__add(x, y) = y.is_a?(Integer) && y == 0 ? x : x.is_a?(Integer) && x == 0 ? y : x + y
  def self.__sub(x, y) = y.is_a?(Integer) && y == 0 ? x : x - y

  # -- arithmetic --------------------------------------------------------------------------

  def +(o)
    if o.is_a?(Complex)
      Complex.__new_raw(Complex.__add(@real, o.real), Complex.__add(@imaginary, o.imaginary))
    elsif Complex.__real?(o) then Complex.__new_raw(Complex.__add(@real, o), @imaginary)
    else __coerced(:+, o)
    end
  end

  def -(o)
    if o.is_a?(Complex)
      Complex.__new_raw(Complex.__sub(@real, o.real), Complex.__sub(@imaginary, o.imaginary))
    elsif Complex.__real?(o) then Complex.__new_raw(Complex.__sub(@real, o), @imaginary)
    else __coerced(:-, o)
    end
  end

  def *(o)
    if o.is_a?(Complex)
      a, b, c, d = @real, @imaginary, o.real, o.imaginary
      Complex.__new_raw(Complex.__sub(a * c, b * d), Complex.__add(a * d, b * c))
    elsif Complex.__real?(o) then Complex.__new_raw(@real * o, @imaginary * o)
    else __coerced(:*, o)
    end
  end

  def /(o) = __divide(o, :quo)
  alias_method :quo, :/
  def fdiv(o) = __divide(o, :fdiv)

  # Smith's method for a Complex divisor: scale by the larger of its parts, so that no
  # intermediate square overflows a Float
  def __divide(o, op)
    if o.is_a?(Complex)
      a, b, c, d = @real, @imaginary, o.real, o.imaginary
      floats = [a, b, c, d].any? { |v| v.is_a?(Float) }
      if c.abs > d.abs
        r = d.__send__(op, c)
        n = c * (1 + r * r)
        x = Complex.__add(a, b * r).__send__(op, n)
        y = Complex.__sub(b, a * r).__send__(op, n)
      else
        r = c.__send__(op, d)
        n = d * (1 + r * r)
        x = Complex.__add(a * r, b).__send__(op, n)
        y = Complex.__sub(b * r, a).__send__(op, n)
      end
      x, y = Complex.__canon(x), Complex.__canon(y) unless floats
      Complex.__new_raw(x, y)
    elsif Complex.__real?(o)
      Complex.__new_raw(Complex.__canon(@real.__send__(op, o)), Complex.__canon(@imaginary.__send__(op, o)))
    else
      __coerced(op == :quo ? :/ : op, o)
    end
  end

  def -@ = Complex.__new_raw(-@real, -@imaginary)
  def +@ = self

  def **(o)
    return Complex.__new_raw(1, 0) if Complex.__exact_zero?(o)
    o = o.numerator if o.is_a?(Rational) && o.denominator == 1
    o = o.real if o.is_a?(Complex) && Complex.__exact_zero?(o.imaginary)
    return self if o.is_a?(Integer) && o == 1
    if o.is_a?(Complex)
      r, theta = polar
      lr = Math.log(r)
      return Complex.polar(Math.exp(o.real * lr - o.imaginary * theta), theta * o.real + o.imaginary * lr)
    end
    return __int_pow(o) if o.is_a?(Integer)
    if Complex.__real?(o)
      return Complex.polar(abs ** o, arg * o)
    end
    __coerced(:**, o)
  end

  # exact by repeated squaring; a negative power is that of the reciprocal
  def __int_pow(n)
    base = self
    if n < 0
      base = Complex.__new_raw(1, 0) / self
      n = -n
    end
    re, im = base.real, base.imaginary
    return Complex.__new_raw(re ** n, im) if im == 0
    if re == 0
      v = im ** n
      v = -v if n & 2 != 0
      return n.odd? ? Complex.__new_raw(re, v) : Complex.__new_raw(v, re)
    end
    result = nil
    while n > 0
      result = result ? result * base : base if n.odd?
      n >>= 1
      base = base * base if n > 0
    end
    result
  end

  def abs
    if @real == 0
      a = @imaginary.abs
      return @real.is_a?(Float) && !@imaginary.is_a?(Float) ? a.to_f : a
    end
    if @imaginary == 0
      a = @real.abs
      return @imaginary.is_a?(Float) && !@real.is_a?(Float) ? a.to_f : a
    end
    Math.hypot(@real, @imaginary)
  end
  alias_method :magnitude, :abs

  def abs2 = @real * @real + @imaginary * @imaginary
  def arg = Math.atan2(@imaginary, @real)
  alias_method :angle, :arg
  alias_method :phase, :arg
  def polar = [abs, arg]
  def rectangular = [@real, @imaginary]
  alias_method :rect, :rectangular
  def conjugate = Complex.__new_raw(@real, -@imaginary)
  alias_method :conj, :conjugate
  def real? = false

  def finite? = @real.finite? && @imaginary.finite?
  def infinite? = @real.infinite? || @imaginary.infinite? ? 1 : nil

  def denominator = @real.denominator.lcm(@imaginary.denominator)

  def numerator
    d = denominator
    Complex.__new_raw(Complex.__canon(@real.numerator * (d / @real.denominator)),
                      Complex.__canon(@imaginary.numerator * (d / @imaginary.denominator)))
  end

  # -- comparison --------------------------------------------------------------------------

  def ==(o)
    if o.is_a?(Complex) then @real == o.real && @imaginary == o.imaginary
    elsif Complex.__real?(o) then @real == o && @imaginary == 0
    else o == self
    end
  end

  def <=>(o)
    return nil unless @imaginary == 0
    if o.is_a?(Complex)
      o.imaginary == 0 ? @real <=> o.real : nil
    elsif Complex.__real?(o)
      @real <=> o
    end
  end

  def eql?(o) = o.is_a?(Complex) && @real.eql?(o.real) && @imaginary.eql?(o.imaginary)
  def hash = [Complex, @real, @imaginary].hash

  def coerce(o)
    if o.is_a?(Complex) then [o, self]
    elsif Complex.__real?(o) then [Complex.__new_raw(o, 0), self]
    else raise TypeError, "#{o.class} can't be coerced into Complex"
    end
  end

  # -- conversion --------------------------------------------------------------------------

  def __real_only(to)
    # CRuby 3.4: a Float 0.0 imaginary part is zero enough for to_r as well
    ok = Complex.__exact_zero?(@imaginary) || (to == "Rational" && @imaginary.is_a?(Float) && @imaginary == 0)
    raise RangeError, "can't convert #{self} into #{to}" unless ok
  end

  def to_i = (__real_only("Integer"); @real.to_i)
  def to_f = (__real_only("Float"); @real.to_f)
  def to_r = (__real_only("Rational"); @real.to_r)
  def to_c = self

  def rationalize(eps = (none = true))
    raise RangeError, "can't convert #{self} into Rational" unless Complex.__exact_zero?(@imaginary)
    none ? @real.rationalize : @real.rationalize(eps)
  end

  def to_s = __format(:to_s)
  def inspect = "(#{__format(:inspect)})"

  def __format(how)
    im = @imaginary
    neg = im.is_a?(Float) ? !im.nan? && (im < 0 || (im == 0 && 1.0 / im < 0)) : im < 0
    s = @real.__send__(how) + (neg ? "-" : "+") + im.abs.__send__(how)
    s << "*" unless s[-1] =~ /\d/
    s << "i"
  end

  def __coerced(op, o)
    raise TypeError, "#{Rational.__operand_name(o)} can't be coerced into Complex" unless o.respond_to?(:coerce)
    a, b = o.coerce(self)
    a.__send__(op, b)
  end

  # Math.sqrt of a Complex (CRuby's Math.sqrt takes one): the principal root
  def __sqrt
    d = abs.to_f
    re = @real.to_f
    im = Math.sqrt((d - re) / 2.0)
    neg = @imaginary.is_a?(Float) ? @imaginary < 0 || (@imaginary == 0 && 1.0 / @imaginary < 0) : @imaginary < 0
    Complex.__new_raw(Math.sqrt((d + re) / 2.0), neg ? -im : im)
  end

  # immutable values: a copy is the value itself, and the parts are not instance variables
  def dup = self
  def clone(freeze: true) = self
  def instance_variables = []

  def marshal_dump = [@real, @imaginary]

  def marshal_load(a)
    raise ArgumentError, "marshaled complex must have an array whose length is 2 but #{a.size}" unless a.size == 2
    @real, @imaginary = a
    freeze
  end
  private :marshal_dump, :marshal_load

  I = __new_raw(0, 1)
end

module Kernel
  def Complex(a, b = (one = true), exception: true)
    if exception
      Complex.__convert(a, b, one)
    else
      begin
        Complex.__convert(a, b, one)
      rescue ArgumentError, TypeError, RangeError
        nil
      end
    end
  end
  module_function :Complex
end

class Complex
  def self.__convert(a, b, one)
    raise TypeError, "can't convert nil into Complex" if a.nil? || (!one && b.nil?)
    a = __parse(a, true) if a.is_a?(String)
    b = __parse(b, true) if b.is_a?(String)
    if one
      return a if a.is_a?(Complex)
      return __new_raw(a, 0) if __real?(a)
      raise TypeError, "can't convert #{a.class} into Complex" unless a.respond_to?(:to_c)
      return a.to_c
    end
    raise TypeError, "can't convert #{a.class} into Complex" unless a.is_a?(Numeric)
    raise TypeError, "can't convert #{b.class} into Complex" unless b.is_a?(Numeric)
    return __new_raw(a, b) if __real?(a) && __real?(b)
    a = __new_raw(a, 0) unless a.is_a?(Complex)
    b = __new_raw(b, 0) unless b.is_a?(Complex)
    __new_raw(a.real - b.imaginary, a.imaginary + b.real)
  end

  NUM = '(?:\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?|\.\d+(?:_\d+)*)(?:[eE][-+]?\d+(?:_\d+)*)?(?:/\d+(?:_\d+)*)?'

  # The forms a string may spell, tried in order. Literals in a method, not a constant: a literal is
  # compiled at its first use and kept by its site, while a constant's Regexps were compiled at boot
  # by every state (every ractor), used or not.
  def self.__forms
    [
      [:polar, /\A\s*([-+]?#{NUM})@([-+]?#{NUM})/],
      [:rect,  /\A\s*([-+]?#{NUM})?([-+])(#{NUM})?[iIjJ]/],
      [:imag,  /\A\s*([-+]?(?:#{NUM})?)[iIjJ]/],
      [:real,  /\A\s*([-+]?#{NUM})/],
    ]
  end

  # the Complex a string spells: all of it (Kernel#Complex) or its longest prefix (String#to_c)
  def self.__parse(str, strict)
    __forms.each do |form, re|
      m = re.match(str)
      next unless m
      next if strict && str[m[0].length..] !~ /\A\s*\z/
      case form
      when :polar then return polar(__num(m[1]), __num(m[2]))
      when :rect
        im = m[3] ? __num(m[3]) : 1
        return __new_raw(m[1] ? __num(m[1]) : 0, m[2] == "-" ? -im : im)
      when :imag
        im = m[1] == "" || m[1] == "+" ? 1 : m[1] == "-" ? -1 : __num(m[1])
        return __new_raw(0, im)
      else return __new_raw(__num(m[1]), 0)
      end
    end
    raise ArgumentError, "invalid value for convert(): #{str.inspect}" if strict
    __new_raw(0, 0)
  end

  def self.__num(s)
    return __canon(s.to_r) if s.include?("/")
    s =~ /[.eE]/ ? s.delete("_").to_f : s.delete("_").to_i
  end
end

class String
  def to_c = Complex.__parse(self, false)
end

class NilClass
  def to_c = Complex.__new_raw(0, 0)
end
