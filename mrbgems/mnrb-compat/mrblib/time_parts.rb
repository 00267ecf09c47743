# Time's parts and rounding (CRuby): tv_sec/tv_usec/tv_nsec, isdst, to_a, subsec and to_r,
# round/floor/ceil to a number of decimal digits of a second. mruby's Time
# counts microseconds, so digits beyond 6 change nothing.
class Time
  def tv_sec = to_i
  def tv_usec = usec
  def tv_nsec = nsec
  def isdst = dst?

  def to_a
    [sec, min, hour, day, month, year, wday, yday, isdst, zone]
  end

  # (Rational comes from mnrb-rational, which loads after this gem: looked up at the call)
  def subsec
    u = usec
    u == 0 ? 0 : Rational(u, 1_000_000)
  end

  def to_r
    Rational(to_i * 1_000_000 + usec, 1_000_000)
  end

  def round(ndigits = 0)
    __mnrb_round_usec(ndigits) { |u, unit| r = u % unit; r * 2 >= unit ? u - r + unit : u - r }
  end

  def floor(ndigits = 0)
    __mnrb_round_usec(ndigits) { |u, unit| u - u % unit }
  end

  def ceil(ndigits = 0)
    __mnrb_round_usec(ndigits) { |u, unit| r = u % unit; r == 0 ? u : u - r + unit }
  end

  def __mnrb_round_usec(ndigits)
    unless ndigits.is_a?(Integer)
      raise TypeError, "no implicit conversion of #{ndigits.nil? ? 'nil' : ndigits.class} into Integer" unless ndigits.respond_to?(:to_int)
      ndigits = ndigits.to_int
    end
    raise ArgumentError, "negative ndigits given" if ndigits < 0
    return dup if ndigits >= 6
    unit = 10**(6 - ndigits)
    total = yield(to_i * 1_000_000 + usec, unit)
    t = Time.at(total / 1_000_000, total % 1_000_000)
    utc? ? t.utc : (zone.nil? ? t.localtime(utc_offset) : t)   # in this Time's zone or fixed offset
  end
end
