# Integer#round, #floor, #ceil and #truncate to a negative number of digits, as CRuby: exact at
# any size, halves away from zero unless round's half: says :even or :down (mruby 3.3 gave the
# remainder for Integers: 12345.round(-2) was 45; 12300.floor(-2) was 12200). Float's
# (src/float_round.c) end here for ndigits < 0, through __round_half.
#
# On port33 a fixnum on the left of % or < with a bigint on the right fails (a Float, or
# ArgumentError), so these keep bigints on the left: see __mod_unit and the sign tests.
class Numeric
  private

  # round's half: keyword (Integer, Float, Rational) as a Symbol: nil is :up; names may be Strings.
  def __half_mode(half)
    case half
    when nil, :up, "up" then :up
    when :even, "even" then :even
    when :down, "down" then :down
    when Symbol, String then raise ArgumentError, "invalid rounding mode: #{half}"
    else raise ArgumentError, "invalid rounding mode: #{half.inspect}"
    end
  end
end

class Integer
  # CRuby reads half: only when ndigits is given (25.round(half: :bad) is 25).
  def round(ndigits = (omitted = true; 0), half: nil)
    return self if omitted
    __round_half(ndigits, __half_mode(half))
  end

  # self rounded to ndigits, a half going away from zero (:up), towards it (:down) or to the
  # even multiple (:even).
  def __round_half(ndigits, mode)
    unit = __rounding_unit(ndigits) or return ndigits.__to_int >= 0 ? self : 0
    r = __mod_unit(unit)
    lo = self - r
    d = unit - r - r # > 0 below the half, 0 at it
    return d > 0 ? lo : lo + unit if d != 0
    case mode
    when :even then (lo / unit).even? ? lo : lo + unit
    when :down then self > 0 ? lo : lo + unit
    else self > 0 ? lo + unit : lo
    end
  end

  def floor(ndigits = 0)
    unit = __rounding_unit(ndigits) or return ndigits.__to_int >= 0 ? self : 0
    self - __mod_unit(unit)
  end

  def ceil(ndigits = 0)
    unit = __rounding_unit(ndigits) or return ndigits.__to_int >= 0 ? self : 0
    r = __mod_unit(unit)
    r == 0 ? self : self - r + unit
  end

  def truncate(ndigits = 0)
    self < 0 ? ceil(ndigits) : floor(ndigits)
  end

  private

  # 10**-ndigits, or nil when ndigits >= 0 or when, as CRuby decides it from self's size in bytes
  # (a decimal digit is 0.415 bytes), that power is beyond self (the result is 0 then; CRuby
  # answers 0 for floor and ceil there too).
  def __rounding_unit(ndigits)
    nd = -ndigits.__to_int
    return nil if nd <= 0
    bytes = (abs.to_s(16).size + 1) / 2 # not bit_length: wrong for bigints on port33
    bytes = 8 if bytes < 8
    return nil if 0.415241 * nd - 0.125 > bytes
    10**nd
  end

  # self % unit, in 0...unit. A unit beyond 10**18 is a bigint; self may be a fixnum below it.
  def __mod_unit(unit)
    return self % unit if unit <= 1_000_000_000_000_000_000 || !(unit > abs)
    self < 0 ? self + unit : self
  end
end
