# require "date": Date and DateTime as CRuby's date library has them (the calendar, arithmetic,
# comparison, conversion; date_format.rb has strftime and the formatters, date_parse.rb the
# readers: _parse, _strptime, iso8601 and the completion of partial dates).
#
# A date is a count of days, the chronological Julian Day Number, as in CRuby. Every object holds
#   @jd  Integer   the Julian day of the instant in UTC
#   @df  Integer   seconds into that UTC day, 0...86400 (0 for a plain Date made from fields)
#   @sf  Integer   nanoseconds into that second, 0...10**9
#   @of  Integer   the offset from UTC in seconds, -86400 < @of < 86400 (0 for a Date)
#   @sg  Numeric   the day of calendar reform: days before it are Julian, from it Gregorian
#                  (ITALY 2299161 = 1582-10-15 by default; JULIAN = +Infinity, GREGORIAN = -Infinity)
# and never changes them after initialization (methods return new objects). The civil fields
# are computed from the local Julian day (@jd shifted by @of) when asked. Calendar conversions
# are integer forms of the classic Julian day formulas (Meeus, "Astronomical Algorithms", ch. 7),
# exact for any Integer year, so proleptic dates before 1582 follow the Julian calendar as
# CRuby's do (and follow the Gregorian one with GREGORIAN as start).
class Date
  include Comparable

  class Error < ArgumentError; end

  ITALY = 2299161
  ENGLAND = 2361222
  JULIAN = Float::INFINITY
  GREGORIAN = -Float::INFINITY
  MONTHNAMES = [nil, "January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"].map { |s| s.freeze if s }.freeze
  ABBR_MONTHNAMES = MONTHNAMES.map { |s| s[0, 3].freeze if s }.freeze
  DAYNAMES = %w(Sunday Monday Tuesday Wednesday Thursday Friday Saturday).map(&:freeze).freeze
  ABBR_DAYNAMES = DAYNAMES.map { |s| s[0, 3].freeze }.freeze
  DAY_NS = 86400 * 1_000_000_000   # nanoseconds in a day
  UNIX_EPOCH_JD = 2440588          # 1970-01-01

  class << self
    # --- calendar arithmetic (class-level so that parsers and DateTime share it) ---

    # The Julian day of the civil date y-m-d read in the Julian (julian true) or Gregorian calendar.
    def __civil_jd__(y, m, d, julian)
      if m <= 2
        y -= 1
        m += 12
      end
      b = 0
      unless julian
        a = y.div(100)
        b = 2 - a + a.div(4)
      end
      (1461 * (y + 4716)).div(4) + (306001 * (m + 1)).div(10000) + d + b - 1524
    end

    # [year, mon, mday] of the Julian day jd under the reform day sg.
    def __jd_civil__(jd, sg)
      a = jd
      if jd >= sg
        x = (4 * jd - 7468865).div(146097)
        a = jd + 1 + x - x.div(4)
      end
      b = a + 1524
      c = (20 * b - 2442).div(7305)
      d = (1461 * c).div(4)
      e = (10000 * (b - d)).div(306001)
      dom = b - d - (306001 * e).div(10000)
      m = e < 14 ? e - 1 : e - 13
      [m > 2 ? c - 4716 : c - 4715, m, dom]
    end

    # The Julian day of y-m-d under sg, or nil if there is no such day (negative m and d count
    # from the end, as CRuby's).
    def __valid_civil__(y, m, d, sg)
      return nil unless y.is_a?(Integer) && m.is_a?(Integer) && d.is_a?(Integer)
      m += 13 if m < 0
      return nil if m < 1 || m > 12
      if d < 0
        last = __last_mday__(y, m, sg) or return nil
        d = last + d + 1
      end
      return nil if d < 1 || d > 31
      jd = __civil_jd__(y, m, d, false)
      jd = __civil_jd__(y, m, d, true) if jd < sg
      return nil unless __jd_civil__(jd, sg) == [y, m, d]
      jd
    end

    def __last_mday__(y, m, sg)
      ny, nm = m == 12 ? [y + 1, 1] : [y, m + 1]
      first_next = __civil_jd__(ny, nm, 1, false)
      first_next = __civil_jd__(ny, nm, 1, true) if first_next < sg
      __jd_civil__(first_next - 1, sg)[2]
    end

    def __valid_ordinal__(y, yd, sg)
      return nil unless y.is_a?(Integer) && yd.is_a?(Integer)
      first = __valid_civil__(y, 1, 1, sg)
      first ||= (1..10).each { |i| j = __valid_civil__(y, 1, 1 + i, sg) and break j } # a reform in January
      return nil unless first.is_a?(Integer)
      ylen = (__valid_civil__(y + 1, 1, 1, sg) || first + 365) - first
      yd += ylen + 1 if yd < 0
      return nil if yd < 1 || yd > ylen
      first + yd - 1
    end

    def __valid_commercial__(y, w, d, sg)
      return nil unless y.is_a?(Integer) && w.is_a?(Integer) && d.is_a?(Integer)
      d += 8 if d < 0
      return nil if d < 1 || d > 7
      # Week 1 holds January 4th; its Monday is the start of the commercial year.
      jan4 = __civil_jd__(y, 1, 4, false)
      jan4 = __civil_jd__(y, 1, 4, true) if jan4 < sg
      mon1 = jan4 - (jan4 + 1) % 7 + ((jan4 + 1) % 7 == 0 ? -6 : 1)
      if w < 0
        nxt = __valid_commercial__(y + 1, 1, 1, sg)
        w = (nxt - mon1) / 7 + w + 1
      end
      jd = mon1 + (w - 1) * 7 + d - 1
      return nil unless w >= 1 && __commercial__(jd, sg)[0] == y
      jd
    end

    # [cwyear, cweek, cwday] of jd.
    def __commercial__(jd, sg)
      cwday = (jd + 1) % 7
      cwday = 7 if cwday == 0
      thursday = jd - cwday + 4
      y = __jd_civil__(thursday, sg)[0]
      jan1 = __civil_jd__(y, 1, 1, false)
      jan1 = __civil_jd__(y, 1, 1, true) if jan1 < sg
      [y, (thursday - jan1).div(7) + 1, cwday]
    end

    def __check_sg__(sg)
      raise TypeError, "invalid start (#{sg.inspect})" unless sg.is_a?(Numeric)
      sg
    end

    # --- constructors ---

    def civil(y = -4712, m = 1, d = 1, sg = ITALY)
      jd = __valid_civil__(y, m, d, __check_sg__(sg)) or raise Error, "invalid date"
      __from_jd__(jd, sg)
    end

    def jd(jd = 0, sg = ITALY)
      __from_jd__(jd.floor, __check_sg__(sg))
    end

    def ordinal(y = -4712, yd = 1, sg = ITALY)
      jd = __valid_ordinal__(y, yd, __check_sg__(sg)) or raise Error, "invalid date"
      __from_jd__(jd, sg)
    end

    def commercial(y = -4712, w = 1, d = 1, sg = ITALY)
      jd = __valid_commercial__(y, w, d, __check_sg__(sg)) or raise Error, "invalid date"
      __from_jd__(jd, sg)
    end

    def today(sg = ITALY)
      t = Time.now
      civil(t.year, t.mon, t.mday, sg)
    end

    def valid_civil?(y, m, d, sg = ITALY)
      !__valid_civil__(y, m, d, sg).nil?
    end
    alias valid_date? valid_civil?

    def valid_ordinal?(y, yd, sg = ITALY)
      !__valid_ordinal__(y, yd, sg).nil?
    end

    def valid_commercial?(y, w, d, sg = ITALY)
      !__valid_commercial__(y, w, d, sg).nil?
    end

    def valid_jd?(jd, sg = ITALY)
      jd.is_a?(Numeric)
    end

    def gregorian_leap?(y)
      raise TypeError, "invalid year (not numeric)" unless y.is_a?(Numeric)
      (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    end
    alias leap? gregorian_leap?

    def julian_leap?(y)
      raise TypeError, "invalid year (not numeric)" unless y.is_a?(Numeric)
      y % 4 == 0
    end

    # A new object of this class on the UTC instant (jd, df, sf) at offset of.
    def __new__(jd, df, sf, of, sg)
      d = allocate
      d.__send__(:__set__, jd, df, sf, of, sg)
      d
    end

    def __from_jd__(jd, sg)
      __new__(jd, 0, 0, 0, sg)
    end

    def _load(s)
      d = allocate
      d.marshal_load(Marshal.load(s))
      d
    end
  end

  def initialize(y = -4712, m = 1, d = 1, sg = ITALY)
    jd = Date.__valid_civil__(y, m, d, Date.__check_sg__(sg)) or raise Error, "invalid date"
    __set__(jd, 0, 0, 0, sg)
  end

  def __set__(jd, df, sf, of, sg)
    @jd = jd
    @df = df
    @sf = sf
    @of = of
    @sg = sg
    @civil = nil
  end
  private :__set__

  # --- fields ---

  # The Julian day of the local date.
  def jd
    @of == 0 ? @jd : @jd + (@df + @of).div(86400)
  end

  def __local_df__
    (@df + @of) % 86400
  end

  def __civil__
    @civil ||= Date.__jd_civil__(jd, @sg)
  end

  def year; __civil__[0]; end
  def mon; __civil__[1]; end
  alias month mon
  def mday; __civil__[2]; end
  alias day mday

  def start; @sg.to_f; end
  def wday; (jd + 1) % 7; end
  def cwday; w = wday; w == 0 ? 7 : w; end
  def cweek; Date.__commercial__(jd, @sg)[1]; end
  def cwyear; Date.__commercial__(jd, @sg)[0]; end
  def mjd; jd - 2400001; end
  def ld; jd - 2299160; end

  def yday
    y = year
    first = Date.__valid_ordinal__(y, 1, @sg)
    jd - first + 1
  end

  # ajd and day_fraction are Integers when whole, as CRuby's (amjd stays a Rational).
  def __whole__(r)
    r.denominator == 1 ? r.numerator : r
  end
  private :__whole__

  def ajd
    __whole__(Rational(((@jd * 86400 + @df) * 1_000_000_000 + @sf) * 2 - DAY_NS, DAY_NS * 2))
  end

  def amjd
    ajd - Rational(4800001, 2)
  end

  def day_fraction
    __whole__(Rational(__local_df__ * 1_000_000_000 + @sf, DAY_NS))
  end

  def julian?; jd < @sg; end
  def gregorian?; !julian?; end

  def leap?
    julian? ? Date.julian_leap?(year) : Date.gregorian_leap?(year)
  end

  # Plain defs, not define_method: a method defined with a Proc cannot be called from another Ractor.
  def sunday?; wday == 0; end
  def monday?; wday == 1; end
  def tuesday?; wday == 2; end
  def wednesday?; wday == 3; end
  def thursday?; wday == 4; end
  def friday?; wday == 5; end
  def saturday?; wday == 6; end

  def new_start(sg = ITALY)
    self.class.__new__(@jd, @df, @sf, @of, Date.__check_sg__(sg))
  end
  def italy; new_start(ITALY); end
  def england; new_start(ENGLAND); end
  def julian; new_start(JULIAN); end
  def gregorian; new_start(GREGORIAN); end

  # --- arithmetic ---

  # The instant in nanoseconds since Julian day 0 (UTC).
  def __ns__
    (@jd * 86400 + @df) * 1_000_000_000 + @sf
  end

  def __from_ns__(ns)
    jd, rest = ns.divmod(DAY_NS)
    df, sf = rest.divmod(1_000_000_000)
    self.class.__new__(jd, df, sf, @of, @sg)
  end

  def +(n)
    case n
    when Integer
      self.class.__new__(@jd + n, @df, @sf, @of, @sg)
    when Rational
      __from_ns__(__ns__ + (n * DAY_NS).round)
    when Float
      __from_ns__(__ns__ + (n * DAY_NS).round)
    when Numeric
      self + n.to_r
    else
      raise TypeError, "expected numeric"
    end
  end

  def -(x)
    if x.is_a?(Date)
      diff = __ns__ - x.__ns__
      diff % DAY_NS == 0 ? Rational(diff / DAY_NS, 1) : Rational(diff, DAY_NS)
    elsif x.is_a?(Numeric)
      self + -x
    else
      raise TypeError, "expected numeric or date"
    end
  end

  # n months later; a day past the end of the target month becomes its last day.
  def >>(n)
    raise TypeError, "expected numeric" unless n.is_a?(Numeric)
    y, m = (year * 12 + (mon - 1) + n.to_i).divmod(12)
    d = mday
    jd = nil
    d.downto(1) { |dd| (jd = Date.__valid_civil__(y, m + 1, dd, @sg)) and break }
    self.class.__new__(@jd + (jd - self.jd), @df, @sf, @of, @sg)
  end

  def <<(n)
    raise TypeError, "expected numeric" unless n.is_a?(Numeric)
    self >> -n
  end

  def next_day(n = 1); self + n; end
  def prev_day(n = 1); self - n; end
  def next_month(n = 1); self >> n; end
  def prev_month(n = 1); self << n; end
  def next_year(n = 1); self >> n * 12; end
  def prev_year(n = 1); self << n * 12; end
  def succ; self + 1; end
  alias next succ

  def step(limit, by = 1)
    return to_enum(:step, limit, by) unless block_given?
    raise ArgumentError, "step can't be 0" if by == 0
    d = self
    if by > 0
      while d <= limit
        yield d
        d += by
      end
    else
      while d >= limit
        yield d
        d += by
      end
    end
    self
  end

  def upto(max, &block)
    return to_enum(:upto, max) unless block
    step(max, 1, &block)
  end

  def downto(min, &block)
    return to_enum(:downto, min) unless block
    step(min, -1, &block)
  end

  # --- comparison ---

  def <=>(other)
    if other.is_a?(Date)
      __ns__ <=> other.__ns__
    elsif other.is_a?(Numeric)
      ajd <=> other
    end
  end

  def ==(other)
    return false unless other.is_a?(Date) || other.is_a?(Numeric)
    (self <=> other) == 0
  end

  # The same calendar day (local dates), whatever the time and offset.
  def ===(other)
    if other.is_a?(Date)
      jd == other.jd
    elsif other.is_a?(Numeric)
      jd == other
    else
      false
    end
  end

  def eql?(other)
    other.is_a?(Date) && __ns__ == other.__ns__
  end

  def hash
    __ns__.hash
  end

  # --- conversion ---

  def to_date
    return self if instance_of?(Date)
    Date.__from_jd__(jd, @sg)
  end

  def to_datetime
    DateTime.__new__(jd, 0, 0, 0, @sg)
  end

  def to_time
    Time.local(year, mon, mday)
  end

  def marshal_dump
    [0, @jd, @df, @sf, @of, @sg.to_f]
  end

  def marshal_load(a)
    _nth, jd, df, sf, of, sg = a
    sg = sg.to_i if sg.is_a?(Float) && sg.finite? && sg == sg.to_i
    __set__(jd, df, sf.to_i, of, sg)
  end

  def deconstruct_keys(keys)
    h = { year: year, month: mon, day: mday, yday: yday, wday: wday }
    keys ? h.select { |k, _| keys.include?(k) } : h
  end

  def to_s
    format("%s-%02d-%02d", __year_s__, mon, mday)
  end

  def __year_s__
    y = year
    y < 0 ? format("-%04d", -y) : format("%04d", y)
  end

  def __sg_s__
    @sg.is_a?(Float) ? format("%.0f", @sg) : @sg.to_s
  end

  def inspect
    "#<#{self.class}: #{self} ((#{@jd}j,#{@df}s,#{@sf}n),#{@of >= 0 ? '+' : ''}#{@of}s,#{__sg_s__}j)>"
  end
end

# A Date with a time of day and an offset from UTC.
class DateTime < Date
  class << self
    # Seconds east of UTC from "+09:00" / "-0500" / "Z", or a fraction of a day.
    def __offset_s__(of)
      case of
      when String
        s = Date.__zone_offset__(of)
        raise Date::Error, "invalid offset is ignored" unless s   # CRuby warns; 0 is used
        s
      when Integer, Rational, Float
        s = (of * 86400).round
        raise Date::Error, "invalid offset" if s.abs >= 86400
        s
      else
        raise TypeError, "invalid offset"
      end
    end

    # The UTC instant of local time h:mi:s on local day jd at offset of seconds.
    def __make__(jd, h, mi, s, of, sg)
      raise Date::Error, "invalid date" unless h.is_a?(Integer) && mi.is_a?(Integer) && s.is_a?(Numeric)
      h += 24 if h < 0
      mi += 60 if mi < 0
      s += 60 if s < 0
      raise Date::Error, "invalid date" if h > 24 || mi > 59 || s >= 61 || h < 0 || mi < 0 || s < 0
      raise Date::Error, "invalid date" if h == 24 && (mi > 0 || s > 0)
      whole = s.floor
      sf = ((s - whole) * 1_000_000_000).round
      s = whole
      secs = h * 3600 + mi * 60 + s - of
      djd, df = secs.divmod(86400)
      __new__(jd + djd, df, sf, of, sg)
    end

    def civil(y = -4712, m = 1, d = 1, h = 0, mi = 0, s = 0, of = 0, sg = Date::ITALY)
      jd = Date.__valid_civil__(y, m, d, Date.__check_sg__(sg)) or raise Date::Error, "invalid date"
      __make__(jd, h, mi, s, __offset_s__(of), sg)
    end
    alias new civil

    def jd(jd = 0, h = 0, mi = 0, s = 0, of = 0, sg = Date::ITALY)
      __make__(jd, h, mi, s, __offset_s__(of), sg)
    end

    def ordinal(y = -4712, yd = 1, h = 0, mi = 0, s = 0, of = 0, sg = Date::ITALY)
      jd = Date.__valid_ordinal__(y, yd, sg) or raise Date::Error, "invalid date"
      __make__(jd, h, mi, s, __offset_s__(of), sg)
    end

    def commercial(y = -4712, w = 1, d = 1, h = 0, mi = 0, s = 0, of = 0, sg = Date::ITALY)
      jd = Date.__valid_commercial__(y, w, d, sg) or raise Date::Error, "invalid date"
      __make__(jd, h, mi, s, __offset_s__(of), sg)
    end

    def now(sg = Date::ITALY)
      Time.now.to_datetime.new_start(sg)
    end
  end

  def hour; __local_df__ / 3600; end
  def min; __local_df__ % 3600 / 60; end
  alias minute min
  def sec; __local_df__ % 60; end
  alias second sec

  def sec_fraction
    Rational(@sf, 1_000_000_000)
  end
  alias second_fraction sec_fraction

  def offset
    Rational(@of, 86400)
  end

  def zone
    __zone_s__(true)
  end

  def new_offset(of = 0)
    DateTime.__new__(@jd, @df, @sf, DateTime.__offset_s__(of), @sg)
  end

  def to_date
    Date.__from_jd__(jd, @sg)
  end

  def to_datetime
    self
  end

  # The same instant as a Time at this DateTime's offset (CRuby's: "+0900", "UTC" not).
  def to_time
    Time.at((@jd - Date::UNIX_EPOCH_JD) * 86400 + @df, @sf / 1000.0).localtime(@of)
  end

  def deconstruct_keys(keys)
    h = { year: year, month: mon, day: mday, yday: yday, wday: wday, hour: hour, min: min,
          sec: sec, sec_fraction: sec_fraction, zone: zone }
    keys ? h.select { |k, _| keys.include?(k) } : h
  end

  def to_s
    format("%s-%02d-%02dT%02d:%02d:%02d%s", __year_s__, mon, mday, hour, min, sec, zone)
  end
end

class Time
  def to_date
    Date.civil(year, mon, mday)
  end

  def to_datetime
    DateTime.civil(year, mon, mday, hour, min, sec + Rational(nsec, 1_000_000_000),
                   Rational(utc_offset, 86400))
  end


  def to_time
    self
  end
end
