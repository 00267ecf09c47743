# BigDecimal (`require "bigdecimal"`): CRuby's arbitrary-precision decimal, in Ruby over Integer.
#
# A finite value is sign * coef * 10**exp with coef an Integer >= 0 kept without trailing zeros
# (so 1.50 and 1.5 are one value, one hash); NaN and the infinities are kinds of their own. Values
# are frozen. Addition, subtraction and multiplication are exact; add/sub/mult(b, n) round the exact
# result to n significant digits.
#
# Division (a / b, quo, div(b, 0)) follows CRuby's bigdecimal 3.1 precision rule, which comes from
# its base-10**9 words: with mx = max(a.precision, b.precision) * 2 (at least 32), the quotient is
# kept to the word position 9 * (wa - wb - nw + 2) (wa, wb: the words of a's and b's leading
# digit, nw: the quotient words mx gives) and the last kept word is rounded with the rounding mode
# on the next quotient word, as CRuby does; its printed digits then equal CRuby's
# (test/ruby/bigdecimal_test.rb has the cases). Floats enter arithmetic as their shortest
# round-trip digits, Rationals as a.words * 9 significant digits, as in CRuby.
#
# BigMath: bigdecimal_bigmath.rb (exp, log) and bigdecimal_math.rb ("bigdecimal/math").
# Left out: BigDecimal.limit > 0 (accepted, not applied), sqrt and
# non-integer powers compute correct digits where CRuby's last digits differ.
class BigDecimal < Numeric
  VERSION = "3.1.5"
  BASE = 1_000_000_000
  EXCEPTION_ALL = 0xff
  EXCEPTION_NaN = 0x02
  EXCEPTION_INFINITY = 0x01
  EXCEPTION_UNDERFLOW = 0x04
  EXCEPTION_OVERFLOW = 0x01
  EXCEPTION_ZERODIVIDE = 0x10
  ROUND_MODE = 0x100
  ROUND_UP = 1
  ROUND_DOWN = 2
  ROUND_HALF_UP = 3
  ROUND_HALF_DOWN = 4
  ROUND_CEILING = 5
  ROUND_FLOOR = 6
  ROUND_HALF_EVEN = 7
  SIGN_NaN = 0
  SIGN_POSITIVE_ZERO = 1
  SIGN_NEGATIVE_ZERO = -1
  SIGN_POSITIVE_FINITE = 2
  SIGN_NEGATIVE_FINITE = -2
  SIGN_POSITIVE_INFINITE = 3
  SIGN_NEGATIVE_INFINITE = -3

  ROUND_NAMES = {
    up: ROUND_UP, down: ROUND_DOWN, truncate: ROUND_DOWN, half_up: ROUND_HALF_UP, default: ROUND_HALF_UP,
    half_down: ROUND_HALF_DOWN, half_even: ROUND_HALF_EVEN, banker: ROUND_HALF_EVEN,
    ceiling: ROUND_CEILING, ceil: ROUND_CEILING, floor: ROUND_FLOOR,
  }
  HALF_NAMES = { up: ROUND_HALF_UP, down: ROUND_HALF_DOWN, even: ROUND_HALF_EVEN }
  FLOAT_DIGITS = 16                    # CRuby's BIGDECIMAL_DOUBLE_FIGURES
  NEG_ZERO = -Float::MIN * 0           # made at run time: mrbc would merge a -0.0 literal with 0.0
  # Patterns are Regexp.new: lib/ code may not add symbols, as /literals/ do (feature_build.rb)
  NUMBER = Regexp.new('\A\s*([-+]?)(\d+(?:_\d+)*_?)?(?:\.(\d+(?:_\d+)*_?))?(?:[eEdD]([-+]?\d+))?\s*\z')
  LOOSE_NUMBER = Regexp.new('\A\s*[-+]?(?:\d+(?:_\d+)*)?(?:\.\d+(?:_\d+)*)?(?:[eEdD][-+]?\d+)?')
  NAN_RE = Regexp.new('\A\s*NaN\s*\z')
  INFINITY_RE = Regexp.new('\A\s*([-+]?)Infinity\s*\z')
  DUMP_PREFIX = Regexp.new('\A\d+:')
  TRAILING_ZEROS = Regexp.new('0+\z')
  DIGITS = Regexp.new('\d+')

  class << self
    alias_method :__make, :new
    private :__make
    undef_method :new
    private :allocate               # Class#new calls it (mruby); CRuby has none: TypeError

    # the rounding mode and exception flags are per thread, as in CRuby
    def __modes
      Thread.current[:__bigdecimal_modes__] ||= [ROUND_HALF_UP, 0]
    end

    def mode(which, value = nil)
      modes = __modes
      if which == ROUND_MODE
        modes[0] = __round_mode(value) unless value.nil?
        return modes[0]
      end
      raise ArgumentError, "first argument for BigDecimal.mode invalid" unless which.is_a?(Integer) && which & ~EXCEPTION_ALL == 0
      unless value.nil?
        raise ArgumentError, "second argument must be true or false" unless value == true || value == false
        modes[1] = value ? modes[1] | which : modes[1] & ~which
      end
      modes[1] & which
    end

    def __round_mode(m)
      return m if m.is_a?(Integer) && m >= ROUND_UP && m <= ROUND_HALF_EVEN
      n = ROUND_NAMES[m.is_a?(String) ? m.to_sym : m] if m.is_a?(Symbol) || m.is_a?(String)
      n or raise ArgumentError, "invalid rounding mode (#{m.nil? ? 'nil' : m})"
    end

    def save_rounding_mode
      saved = mode(ROUND_MODE)
      begin
        yield
      ensure
        mode(ROUND_MODE, saved)
      end
    end

    def save_exception_mode
      saved = __modes[1]
      begin
        yield
      ensure
        __modes[1] = saved
      end
    end

    def save_limit
      saved = limit
      begin
        yield
      ensure
        limit(saved)
      end
    end

    def limit(n = nil)
      old = @limit || 0
      unless n.nil?
        raise ArgumentError, "argument must be positive" if n < 0
        @limit = n
      end
      old
    end

    def double_fig = FLOAT_DIGITS

    def interpret_loosely(str)
      m = LOOSE_NUMBER.match(str.to_str)
      __parse(m[0]) || __finite(1, 0, 0)
    end

    def _load(str) = BigDecimal(str.sub(DUMP_PREFIX, ""))

    # --- construction (internal) ---
    def __finite(sign, coef, exp)
      if coef == 0
        return __make(sign, 0, 0, :finite)
      end
      if coef % 10 == 0
        s = coef.to_s
        t = s.sub(TRAILING_ZEROS, "")
        exp += s.size - t.size
        coef = t.to_i
      end
      __make(sign, coef, exp, :finite)
    end

    def __nan = __make(1, 0, 0, :nan)
    def __inf(sign) = __make(sign, 0, 0, :inf)

    # nil when str is not a BigDecimal literal
    def __parse(str)
      return __nan if NAN_RE.match?(str)
      if (inf = INFINITY_RE.match(str))
        return __inf(inf[1] == "-" ? -1 : 1)
      end
      m = NUMBER.match(str)
      return nil unless m && (m[2] || m[3])
      int = (m[2] || "").delete("_")
      frac = (m[3] || "").delete("_")
      exp = m[4].to_i - frac.size
      __finite(m[1] == "-" ? -1 : 1, (int + frac).to_i, exp)
    end

    def __from_float(f, prec)
      return __nan if f.nan?
      return __inf(f < 0 ? -1 : 1) if f.infinite?
      raise ArgumentError, "precision too large." if prec > FLOAT_DIGITS
      v = __parse(f.to_s)
      v = __finite(-1, 0, 0) if f == 0 && 1.0 / f < 0
      prec > 0 ? v.__round_digits(prec, mode(ROUND_MODE)) : v
    end

    def __from_rational(r, prec)
      BigDecimal(r.numerator).div(BigDecimal(r.denominator), prec)
    end

    # a BigDecimal for an operand of arithmetic with a, or nil
    def __operand(a, x)
      case x
      when BigDecimal then x
      when Integer then __finite(x < 0 ? -1 : 1, x.abs, 0)
      when Float then __from_float(x, 0)
      when Rational then __from_rational(x, a.__words * 9)
      end
    end

    def __check(v)
      if v.nan?
        raise FloatDomainError, "Computation results to 'NaN'" if mode(EXCEPTION_NaN) != 0
      elsif v.infinite?
        raise FloatDomainError, "Computation results in '#{v.__sign < 0 ? '-' : ''}Infinity'" if mode(EXCEPTION_INFINITY) != 0
      end
      v
    end

    def __zero_divide(sign)
      raise FloatDomainError, "Divide by zero" if mode(EXCEPTION_ZERODIVIDE) != 0
      __check(__inf(sign))
    end
  end

  def initialize(sign, coef, exp, kind)
    @sign = sign        # 1 or -1 (also for zeros and the infinities; 1 for NaN)
    @coef = coef        # Integer >= 0 without trailing zeros: the significant digits
    @exp = exp          # value = @sign * @coef * 10**@exp
    @kind = kind        # :finite, :nan or :inf
    freeze
  end

  def __sign = @sign
  def __coef = @coef
  def __exp = @exp
  def __kind = @kind

  # --- classification ---
  def nan? = @kind == :nan
  def infinite? = @kind == :inf ? @sign : nil
  def finite? = @kind == :finite
  def zero? = @kind == :finite && @coef == 0
  def nonzero? = zero? ? nil : self
  def __special? = @kind != :finite

  def sign
    case @kind
    when :nan then SIGN_NaN
    when :inf then 3 * @sign
    else @coef == 0 ? @sign : 2 * @sign
    end
  end

  def n_significant_digits = finite? && @coef != 0 ? @coef.to_s.size : 0
  def exponent = finite? && @coef != 0 ? @coef.to_s.size + @exp : 0

  def precision
    return 0 unless finite? && @coef != 0
    n = n_significant_digits
    e = exponent
    e >= n ? e : (e <= 0 ? n - e : n)
  end

  def scale
    return 0 unless finite? && @coef != 0
    @exp < 0 ? -@exp : 0
  end

  def precision_scale = [precision, scale]

  # the base-10**9 words from the leading digit's word to the last digit's
  def __words
    return 1 unless finite? && @coef != 0
    __word(exponent) - @exp / 9     # Integer / floors
  end

  # index of the base-10**9 word holding the leading digit of a number whose #exponent is e
  def __word(e) = -(-e / 9)

  # --- conversion ---
  def to_s(fmt = "")
    fmt = fmt.to_s if fmt.is_a?(Integer)
    fmt = fmt.to_str
    plus = fmt.include?("+") ? "+" : (fmt.include?(" ") ? " " : "")
    group = fmt[DIGITS].to_i
    return "NaN" if nan?
    return (@sign < 0 ? "-" : plus) + "Infinity" if infinite?
    head = @sign < 0 ? "-" : plus
    return head + "0.0" if @coef == 0
    digits = @coef.to_s
    if fmt.include?("F") || fmt.include?("f")
      e = exponent
      if e <= 0
        int, frac = "0", "0" * -e + digits
      elsif e >= digits.size
        int, frac = digits + "0" * (e - digits.size), "0"
      else
        int, frac = digits[0, e], digits[e..]
      end
      if group > 0
        int = __group(int.reverse, group).reverse
        frac = __group(frac, group)
      end
      "#{head}#{int}.#{frac}"
    else
      digits = __group(digits, group) if group > 0
      "#{head}0.#{digits}e#{exponent}"
    end
  end

  def inspect = to_s

  # s in groups of n characters from the left, joined by blanks
  def __group(s, n) = (0...s.size).step(n).map { |i| s[i, n] }.join(" ")

  def to_digits
    return to_s if __special?
    to_s("F")
  end

  def _dump(_level = nil) = "#{__words * 9}:#{self}".b   # CRuby: its digits capacity; binary, so
                                                          # Marshal writes no encoding for it

  def split
    return [0, "NaN", 10, 0] if nan?
    return [@sign, "Infinity", 10, 0] if infinite?
    [@sign, @coef.to_s, 10, exponent]
  end

  def __raise_domain
    raise FloatDomainError, nan? ? "Computation results in 'NaN' (Not a Number)" : "Computation results in '#{@sign < 0 ? '-' : ''}Infinity'"
  end

  def to_i
    __raise_domain if __special?
    v = @exp >= 0 ? @coef * 10**@exp : @coef / 10**(-@exp)
    @sign * v
  end
  alias to_int to_i
  alias truncate_to_i to_i

  def to_r
    __raise_domain if __special?
    @exp >= 0 ? Rational(@sign * @coef * 10**@exp, 1) : Rational(@sign * @coef, 10**(-@exp))
  end

  def to_f
    return Float::NAN if nan?
    return @sign * Float::INFINITY if infinite?
    return @sign < 0 ? NEG_ZERO : 0.0 if @coef == 0
    e = exponent
    return @sign * Float::INFINITY if e > 400
    return @sign < 0 ? NEG_ZERO : 0.0 if e < -400
    "#{@sign < 0 ? '-' : ''}#{@coef}e#{@exp}".to_f
  end

  def to_d = self

  def hash = [@kind, @sign, @coef, @exp].hash

  def coerce(other)
    o = BigDecimal.__operand(self, other)
    raise TypeError, "#{other.class} can't be coerced into BigDecimal" unless o
    [o, self]
  end

  def real? = true
  def integer? = false

  # --- rounding ---
  # rounded to a multiple of 10**pos with mode
  def __round_at(pos, mode)
    return self if __special? || @coef == 0 || @exp >= pos
    drop = pos - @exp
    q, r = @coef.divmod(10**drop)
    up = __round_up?(mode, q, r <=> 5 * 10**(drop - 1), r != 0)
    BigDecimal.__finite(@sign, up ? q + 1 : q, pos)
  end

  # whether a kept part q with a dropped part that compares half (-1, 0, 1) to one half of the
  # last kept unit, and is nonzero or not, rounds away from zero
  def __round_up?(mode, q, half, nonzero)
    case mode
    when ROUND_UP then nonzero
    when ROUND_DOWN then false
    when ROUND_HALF_UP then half >= 0
    when ROUND_HALF_DOWN then half > 0
    when ROUND_HALF_EVEN then half > 0 || (half == 0 && q.odd?)
    when ROUND_CEILING then nonzero && @sign > 0
    when ROUND_FLOOR then nonzero && @sign < 0
    end
  end

  def __round_digits(n, mode)
    return self if __special? || @coef == 0
    __round_at(exponent - n, mode)
  end

  # round and round(n <= 0) give an Integer; with a mode or half: a BigDecimal, as CRuby's
  def round(*args, **opts)
    raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0..2)" if args.size > 2
    n = args[0]
    mode = args.size > 1 ? BigDecimal.__round_mode(args[1]) : BigDecimal.mode(ROUND_MODE)
    half = opts[:half]
    unless half.nil?
      mode = HALF_NAMES[half.is_a?(String) ? half.to_sym : half] or raise ArgumentError, "invalid rounding mode (#{half})"
    end
    return __round_at(-(n || 0).to_int, mode) if opts.key?(:half)
    if args.size == 1 && !n.nil?
      n = n.to_int
      v = __round_at(-n, mode)
      return n <= 0 ? v.to_i : v
    end
    return __round_at(0, mode).to_i if n.nil?
    __round_at(-n.to_int, mode)
  end

  def truncate(n = nil) = n.nil? ? __round_at(0, ROUND_DOWN).to_i : __round_at(-n.to_int, ROUND_DOWN)
  def floor(n = nil) = n.nil? ? __round_at(0, ROUND_FLOOR).to_i : __round_at(-n.to_int, ROUND_FLOOR)
  def ceil(n = nil) = n.nil? ? __round_at(0, ROUND_CEILING).to_i : __round_at(-n.to_int, ROUND_CEILING)
  def fix = __round_at(0, ROUND_DOWN)

  def frac
    return self if __special? || @exp >= 0
    self - fix
  end

  # --- sign ---
  def -@
    return self if nan?
    BigDecimal.__send__(:__make, -@sign, @coef, @exp, @kind)
  end

  def +@ = self

  def abs
    return self if nan? || @sign > 0
    -self
  end

  # --- arithmetic ---
  def __operand!(x, op)
    o = BigDecimal.__operand(self, x)
    return o if o
    return nil if x.respond_to?(:coerce)
    raise TypeError, "#{x.nil? ? 'nil' : x.class} can't be coerced into BigDecimal"
  end

  def __coerced(x, op)
    a, b = x.coerce(self)
    a.__send__(op, b)
  end

  def +(x) = __add(x, 1, :+)
  def -(x) = __add(x, -1, :-)

  def __add(x, s, op)
    b = __operand!(x, op) or return __coerced(x, op)
    BigDecimal.__check(__plus(b, s))
  end

  def __plus(b, s)
    bs = b.__sign * s
    return BigDecimal.__nan if nan? || b.nan?
    if infinite? || b.infinite?
      return BigDecimal.__nan if infinite? && b.infinite? && @sign != bs
      return infinite? ? self : BigDecimal.__inf(bs)
    end
    return BigDecimal.__finite(@sign, @coef, @exp) if b.zero? && !zero?
    if zero? && b.zero?
      return BigDecimal.__finite(@sign < 0 && bs < 0 ? -1 : 1, 0, 0)
    end
    return BigDecimal.__finite(bs, b.__coef, b.__exp) if zero?
    e = @exp < b.__exp ? @exp : b.__exp
    v = @sign * @coef * 10**(@exp - e) + bs * b.__coef * 10**(b.__exp - e)
    BigDecimal.__finite(v < 0 ? -1 : 1, v.abs, e)
  end

  def *(x)
    b = __operand!(x, :*) or return __coerced(x, :*)
    BigDecimal.__check(__times(b))
  end

  def __times(b)
    s = @sign * b.__sign
    return BigDecimal.__nan if nan? || b.nan?
    if infinite? || b.infinite?
      return BigDecimal.__nan if zero? || b.zero?
      return BigDecimal.__inf(s)
    end
    BigDecimal.__finite(s, @coef * b.__coef, @exp + b.__exp)
  end

  def /(x)
    b = __operand!(x, :/) or return __coerced(x, :/)
    __divide(b)
  end

  # a / b with CRuby's precision (see the top of this file)
  def __divide(b)
    s = @sign * b.__sign
    return BigDecimal.__check(BigDecimal.__nan) if nan? || b.nan?
    if infinite?
      return BigDecimal.__check(b.infinite? ? BigDecimal.__nan : BigDecimal.__inf(s))
    end
    return BigDecimal.__finite(s, 0, 0) if b.infinite?
    if b.zero?
      return BigDecimal.__check(BigDecimal.__nan) if zero?
      return BigDecimal.__zero_divide(s)
    end
    return BigDecimal.__finite(s, 0, 0) if zero?
    mx = (precision > b.precision ? precision : b.precision) * 2
    mx = 2 * FLOAT_DIGITS if mx < 2 * FLOAT_DIGITS
    words_c = (mx + 18 + 8) / 9
    words_r = ((mx + 1) * 2 + 18 + 8) / 9
    nw = words_c < words_r - 1 ? words_c : words_r - 1
    pos = 9 * (__word(exponent) - __word(b.exponent) - nw + 2)
    num, den = __scaled(b, pos)
    q = num / den
    nxt = __next_word_estimate(b, q, pos)
    up = __round_up_sign?(BigDecimal.mode(ROUND_MODE), q, nxt <=> BASE / 2, nxt != 0, s)
    BigDecimal.__finite(s, up ? q + 1 : q, pos)
  end

  # CRuby rounds the quotient's last word on BASE * (the remainder's leading word) / (b's leading
  # word), in 64 bits cast to 32: the next word when b has one word, an estimate (which can be off,
  # so rounding up where the exact next word would not) when it has more. Done the same way here
  # so that the digits agree.
  def __next_word_estimate(b, q, pos)
    r = BigDecimal.__finite(1, @coef, @exp).__plus(BigDecimal.__finite(1, q * b.__coef, pos + b.__exp), -1)
    return 0 if r.zero?
    ((BASE * r.__lead_word) / b.__lead_word) & 0xffffffff
  end

  # the leading nonzero base-10**9 word of a finite nonzero value (words are aligned on 10**(9k))
  def __lead_word
    low = 9 * (__word(exponent) - 1)        # the decimal exponent of that word's last digit
    @exp >= low ? @coef * 10**(@exp - low) : @coef / 10**(low - @exp)
  end

  def __round_up_sign?(mode, q, half, nonzero, s)
    case mode
    when ROUND_CEILING then nonzero && s > 0
    when ROUND_FLOOR then nonzero && s < 0
    else __round_up?(mode, q, half, nonzero)
    end
  end

  # |self / b| / 10**pos as the fraction num / den of Integers
  def __scaled(b, pos)
    sh = @exp - b.__exp - pos
    sh >= 0 ? [@coef * 10**sh, b.__coef] : [@coef, b.__coef * 10**(-sh)]
  end

  # the exact quotient rounded to n significant digits with the rounding mode
  def __divide_digits(b, n)
    s = @sign * b.__sign
    return __divide(b) if __special? || b.__special? || b.zero? || zero?
    # the quotient's leading digit is at 10**(ea - eb) or 10**(ea - eb - 1)
    lead = exponent - b.exponent
    num, den = __scaled(b, lead - 1)
    lead -= 1 if num < den
    pos = lead - n
    num, den = __scaled(b, pos)
    q, r = num.divmod(den)
    sgn = BigDecimal.__finite(s, 1, 0)
    up = sgn.__round_up?(BigDecimal.mode(ROUND_MODE), q, (2 * r) <=> den, r != 0)
    BigDecimal.__finite(s, up ? q + 1 : q, pos)
  end

  def __prec_arg(n)
    n = n.to_int
    raise ArgumentError, "negative precision" if n < 0
    n
  end

  def add(x, n)
    n = __prec_arg(n)
    b = __operand!(x, :+) or return __coerced(x, :+)
    v = BigDecimal.__check(__plus(b, 1))
    n == 0 ? v : v.__round_digits(n, BigDecimal.mode(ROUND_MODE))
  end

  def sub(x, n)
    n = __prec_arg(n)
    b = __operand!(x, :-) or return __coerced(x, :-)
    v = BigDecimal.__check(__plus(b, -1))
    n == 0 ? v : v.__round_digits(n, BigDecimal.mode(ROUND_MODE))
  end

  def mult(x, n)
    n = __prec_arg(n)
    b = __operand!(x, :*) or return __coerced(x, :*)
    v = BigDecimal.__check(__times(b))
    n == 0 ? v : v.__round_digits(n, BigDecimal.mode(ROUND_MODE))
  end

  def div(x, n = nil)
    if n.nil?
      b = __operand!(x, :div) or return __coerced(x, :div)
      q, = __floor_divmod(b)
      return q.to_i
    end
    n = __prec_arg(n)
    b = __operand!(x, :/) or return __coerced(x, :/)
    n == 0 ? __divide(b) : __divide_digits(b, n)
  end

  def quo(x, n = nil)
    return self / x if n.nil?
    div(x, n)
  end

  # [floor(a / b), a - b * floor(a / b)], both BigDecimal
  def __floor_divmod(b)
    raise ZeroDivisionError, "divided by 0" if b.zero?
    if nan? || b.nan? || infinite?
      raise FloatDomainError, nan? || b.nan? ? "Computation results in 'NaN' (Not a Number)" : "Computation results in 'Infinity'"
    end
    return [BigDecimal.__finite(1, 0, 0), self] if b.infinite? && (zero? || @sign == b.__sign)
    return [BigDecimal.__finite(-1, 1, 0), b] if b.infinite?
    q = (to_r / b.to_r).floor
    qd = BigDecimal(q)
    [qd, self - b * qd]
  end

  def divmod(x)
    b = __operand!(x, :divmod) or return __coerced(x, :divmod)
    __floor_divmod(b)
  end

  def %(x)
    b = __operand!(x, :%) or return __coerced(x, :%)
    __floor_divmod(b)[1]
  end
  alias modulo %

  def remainder(x)
    b = __operand!(x, :remainder) or return __coerced(x, :remainder)
    return BigDecimal.__nan if __special? || b.__special? || b.zero?
    q = (to_r / b.to_r).truncate
    self - b * BigDecimal(q)
  end

  def **(x)
    power(x)
  end

  def power(x, n = nil)
    return BigDecimal.__nan if nan?
    if x.is_a?(Integer)
      v = __int_power(x)
    elsif x.is_a?(BigDecimal) && x.finite? && x.frac.zero?
      v = __int_power(x.to_i)
    else
      f = x.to_f
      r = to_f**f
      return BigDecimal.__from_float(r, 0) if r.is_a?(Float)
      raise Math::DomainError, "Computation results in complex number"
    end
    n.nil? || n == 0 ? v : v.__round_digits(__prec_arg(n), BigDecimal.mode(ROUND_MODE))
  end

  def __int_power(k)
    if infinite?
      return BigDecimal.__finite(1, 0, 0) if k < 0
      return k == 0 ? BigDecimal.__finite(1, 1, 0) : BigDecimal.__inf(@sign < 0 && k.odd? ? -1 : 1)
    end
    if zero?
      return BigDecimal.__finite(1, 1, 0) if k == 0
      return BigDecimal.__finite(k.odd? ? @sign : 1, 0, 0) if k > 0
      return BigDecimal.__zero_divide(k.odd? ? @sign : 1)
    end
    p = BigDecimal.__finite(@sign < 0 && k.odd? ? -1 : 1, @coef**k.abs, @exp * k.abs)
    k >= 0 ? p : BigDecimal.__finite(1, 1, 0).__divide(p)
  end

  def sqrt(n = 0)
    n = __prec_arg(n)
    return BigDecimal.__check(BigDecimal.__nan) if nan?
    raise FloatDomainError, "sqrt of negative value" if @sign < 0 && !zero?
    return self if infinite? || zero?
    digits = (n > FLOAT_DIGITS ? n : FLOAT_DIGITS) + 9
    # isqrt of coef * 10**(2 * k) with an even exponent
    e = @exp
    c = @coef
    if e.odd?
      c *= 10
      e -= 1
    end
    k = digits - c.to_s.size / 2 + 1
    k = 0 if k < 0
    root = Integer.sqrt(c * 10**(2 * k))
    BigDecimal.__finite(1, root, e / 2 - k)
  end

  # --- comparison ---
  def __compare_operand(x)
    case x
    when BigDecimal then x
    when Integer then BigDecimal(x)
    when Float then x.nan? ? BigDecimal.__nan : BigDecimal.__from_float(x, 0)
    when Rational then x
    end
  end

  def <=>(x)
    b = __compare_operand(x)
    if b.nil?
      return nil unless x.respond_to?(:coerce)
      begin
        a, c = x.coerce(self)
      rescue StandardError
        return nil
      end
      return a <=> c
    end
    return nil if nan? || (b.is_a?(BigDecimal) && b.nan?)
    if b.is_a?(Rational)
      return infinite? if infinite?
      return to_r <=> b
    end
    if infinite? || b.infinite?
      x1 = infinite? || 0
      x2 = b.infinite? || 0
      return x1 <=> x2 if x1 != x2
      return 0 if infinite?
    end
    d = __plus(b, -1)
    d.zero? ? 0 : d.__sign
  end

  def ==(x)
    return false if nan?
    c = (self <=> x)
    c.nil? ? (x.is_a?(Numeric) || !x.respond_to?(:coerce) ? false : x == self) : c == 0
  end
  alias === ==

  def eql?(x) = x.is_a?(BigDecimal) && self == x

  def __relation(x, op)
    c = (self <=> x)
    if c.nil?
      return false if nan? || (x.is_a?(Float) && x.nan?) || (x.is_a?(BigDecimal) && x.nan?)
      raise ArgumentError, "comparison of BigDecimal with #{x.nil? ? 'nil' : (x.is_a?(Numeric) ? x.inspect : x.class)} failed"
    end
    c.__send__(op, 0)
  end

  def <(x) = __relation(x, :<)
  def <=(x) = __relation(x, :<=)
  def >(x) = __relation(x, :>)
  def >=(x) = __relation(x, :>=)

  INFINITY = __inf(1)
  NAN = __nan
end

class BigDecimal
  # Kernel#BigDecimal's conversion
  def self.__convert(v, prec)
    unless prec.nil?
      prec = prec.to_int
      raise ArgumentError, "negative precision" if prec < 0
    end
    case v
    when BigDecimal then v
    when Integer then __finite(v < 0 ? -1 : 1, v.abs, 0)
    when Float
      raise ArgumentError, "can't omit precision for a Float." if prec.nil?
      __from_float(v, prec)
    when Rational
      raise ArgumentError, "can't omit precision for a Rational." if prec.nil? || prec == 0
      __from_rational(v, prec)
    when Complex
      raise ArgumentError, "Unable to make a BigDecimal from non-zero imaginary number" unless v.imaginary.zero?
      __convert(v.real, prec)
    when nil
      raise TypeError, "can't convert nil into BigDecimal"
    else
      if v.respond_to?(:to_str)
        s = v.to_str
        __parse(s) or raise ArgumentError, "invalid value for BigDecimal(): #{s.inspect}"
      else
        raise TypeError, "can't convert #{v.class} into BigDecimal"
      end
    end
  end
end

module Kernel
  private

  def BigDecimal(v, prec = nil, exception: true)
    BigDecimal.__check(BigDecimal.__convert(v, prec))
  rescue ArgumentError, TypeError
    raise if exception
    nil
  end
end
