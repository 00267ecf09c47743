# Integer#round, #floor, #ceil and #truncate to a negative number of digits, as CRuby 3.1: exact at
# any size, halves away from zero unless round's half: says :even or :down (mruby 3.3 gave the remainder for Integers: 12345.round(-2) was
# 45; 12300.floor(-2) was 12200). Float's (src/float_round.c) end here for ndigits < 0.
#
# On port33 a fixnum on the left of % or < with a bigint on the right fails (a Float, or
# ArgumentError), so these keep bigints on the left: see __mod_unit and the sign tests.
class Integer
  # half: :up (nil; away from zero), :even or :down (toward zero), for an exact half only
  def round(ndigits = 0, half: nil)
    __round_half(ndigits, half)
  end

  # Also what Float#round (src/float_round.c) calls for ndigits < 0, with its truncated value, as
  # CRuby does (so 25.4.round(-1, half: :even) is 20 in both).
  def __round_half(ndigits, half)
    unit = __rounding_unit(ndigits) or return ndigits.to_int >= 0 ? self : 0
    mode = Integer.__rounding_mode(half)
    r = __mod_unit(unit)
    d = unit - r - r # > 0 below the half, 0 at it
    return self - r + unit if d < 0
    return self - r if d > 0
    lower = self - r
    case mode
    when :up then self > 0 ? lower + unit : lower
    when :down then self > 0 ? lower : lower + unit
    else (lower / unit).even? ? lower : lower + unit
    end
  end

  def self.__rounding_mode(half)
    case half
    when nil, :up, "up" then :up
    when :even, "even" then :even
    when :down, "down" then :down
    else raise ArgumentError, "invalid rounding mode: #{half}"
    end
  end

  def floor(ndigits = 0)
    unit = __rounding_unit(ndigits) or return ndigits.to_int >= 0 ? self : 0
    self - __mod_unit(unit)
  end

  def ceil(ndigits = 0)
    unit = __rounding_unit(ndigits) or return ndigits.to_int >= 0 ? self : 0
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
    nd = -ndigits.to_int
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
