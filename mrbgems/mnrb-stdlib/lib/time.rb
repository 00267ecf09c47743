# require "time": parsing and formatting of the usual textual times, as CRuby's time library has
# them: Time.parse (free-form), Time.strptime (a format), Time.iso8601/xmlschema, Time.rfc2822/
# rfc822, Time.httpdate, Time.zone_offset, and Time#iso8601/xmlschema/rfc2822/httpdate.
#
# (Two files: this one parses free-form text; time_formats.rb has strptime, the fixed formats and
# the formatters.) Every parser fills a fields hash (year mon mday hour min sec usec, zone offset, utc) and hands it
# to Time.__make_time__, which fills missing fields as CRuby does (fields above the first one
# given come from `now`, those below it take their least value), checks ranges with CRuby's
# ArgumentError messages, and makes the Time: local time when no zone was given, UTC for Z, UTC,
# UT and -0000, else the instant at that offset, carrying it (a fixed offset, mruby patch 0178;
# FIXED_OFFSETS is false only on a Time without them: the instant, shown in local time).
# Time.parse understands ISO 8601 dates and times (also compact and with "/"), RFC 2822 and
# ctime forms, month names with a day and/or year, dd/mm/yyyy, mm/dd, yyyy.mm.dd, times with
# am/pm, and zones right after the time as +hh:mm, +hhmm, +hh or names (UTC GMT EST ...; unknown
# names mean local time).
# Patterns are written Regexp.new('...'), not /.../: mnrb's compiler keeps a literal pattern's
# source as a symbol, which code in lib/ may not add (mnrb-require/feature_build.rb).
class Time
  ZONES = {
    "UTC" => 0, "Z" => 0, "UT" => 0, "GMT" => 0,
    "EST" => -5, "EDT" => -4, "CST" => -6, "CDT" => -5,
    "MST" => -7, "MDT" => -6, "PST" => -8, "PDT" => -7,
  }
  MONTHS = %w(jan feb mar apr may jun jul aug sep oct nov dec)
  DAYS = %w(sun mon tue wed thu fri sat)
  FIXED_OFFSETS = (Time.at(0).getlocal(3600).utc_offset == 3600 rescue false)
  ZONE_RE = Regexp.new('(?:[+-]\d\d:?\d\d(?::?\d\d)?|[+-]\d\d\b|Z\b|\b[A-Za-z]{2,5}\b)')
  MONTH_RE = Regexp.new('\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?', Regexp::IGNORECASE)
  # Compiled once: Time.parse tries them in turn.
  OFFSET_RE = Regexp.new('\A([+-])(\d\d):?(\d\d)(?::?(\d\d))?\z')
  OFFSET_HOURS_RE = Regexp.new('\A([+-])(\d\d)\z')
  UTC_ZONE_RE = Regexp.new('\A(?:-00:?00|-00|UTC|Z|UT)\z', Regexp::IGNORECASE)
  DIGIT_RE = Regexp.new('\d')
  WEEKDAY_RE = /\b(#{DAYS.join("|")})[a-z]*\.?,?/i
  COMPACT_RE = /(?:\A|[^\d])(\d{8})T(\d{6})(?:[.,](\d+))?\s*(#{ZONE_RE})?/
  CLOCK_RE = /(\d{1,2}):(\d\d?)(?::(\d\d?)(?:[.,](\d+))?)?\s*(?:([ap])\.?m\.?\b)?\s*(#{ZONE_RE})?/i
  HOUR_AMPM_RE = Regexp.new('\b(\d{1,2})\s*([ap])\.?m\.?\b', Regexp::IGNORECASE)
  YMD_DASH_RE = Regexp.new('([-+]?\d{2,})-(\d\d?)-(\d\d?)')
  YMD_SLASH_RE = Regexp.new('\b(\d{4})/(\d\d?)/(\d\d?)\b')
  DMY_SLASH_RE = Regexp.new('\b(\d\d?)/(\d\d?)/(\d{2,4})\b')
  DAY_MONTH_RE = /\b(\d\d?)(?:st|nd|rd|th)?\s*-?\s*#{MONTH_RE}[\s,-]*(-?\d+)?/i
  MONTH_DAY_RE = /#{MONTH_RE}\s*(\d\d?)(?:st|nd|rd|th)?\b(?:[\s,]+(-?\d{3,}))?/i
  MONTH_YEAR_RE = /#{MONTH_RE}\s*(\d{4})\b/i
  YMD_DOT_RE = Regexp.new('\b(\d{4})\.(\d\d?)\.(\d\d?)\b')
  MD_SLASH_RE = Regexp.new('\b(\d\d?)/(\d\d?)\b')
  YMD_COMPACT_RE = Regexp.new('\A\s*(\d{4})(\d\d)(\d\d)\s*\z')
  if respond_to?(:private_constant, true)
    private_constant :ZONES, :MONTHS, :DAYS, :FIXED_OFFSETS, :ZONE_RE, :MONTH_RE, :OFFSET_RE,
                     :OFFSET_HOURS_RE, :UTC_ZONE_RE, :DIGIT_RE, :WEEKDAY_RE, :COMPACT_RE, :CLOCK_RE,
                     :HOUR_AMPM_RE, :YMD_DASH_RE, :YMD_SLASH_RE, :DMY_SLASH_RE, :DAY_MONTH_RE,
                     :MONTH_DAY_RE, :MONTH_YEAR_RE, :YMD_DOT_RE, :MD_SLASH_RE, :YMD_COMPACT_RE
  end

  # Seconds east of UTC for a zone ("+09:00", "-0500", "EST", "Z"), or nil.
  def self.zone_offset(zone, year = nil)
    z = zone.to_s
    if (m = OFFSET_RE.match(z))
      off = m[2].to_i * 3600 + m[3].to_i * 60 + m[4].to_i
      m[1] == "-" ? -off : off
    elsif (m = OFFSET_HOURS_RE.match(z))
      m[1] == "-" ? -m[2].to_i * 3600 : m[2].to_i * 3600
    elsif (h = ZONES[z.upcase])
      h * 3600
    end
  end

  def self.__zone_utc__?(zone)
    UTC_ZONE_RE.match?(zone.to_s)
  end

  def self.__year2__(y)
    y >= 69 ? 1900 + y : 2000 + y
  end

  def self.__month__(name)
    MONTHS.index(name[0, 3].downcase) + 1
  end

  def self.parse(date, now = nil)
    str = date.to_str
    f = Time.__parse_fields__(str.dup)
    if f.empty? || (f.keys - [:zone]).empty?
      # Digits that make no date (CRuby's parser reads them as fields out of range).
      raise ArgumentError, "argument out of range" if str.match?(DIGIT_RE)
      raise ArgumentError, "no time information in #{str.inspect}"
    end
    Time.__make_time__(f, now || Time.now)
  end

  # Takes known pieces out of s one at a time (the time first, so that what is left of a ctime
  # string reads as month-day-year), as CRuby's Date._parse does.
  def self.__parse_fields__(s)
    f = {}
    s = s.gsub(WEEKDAY_RE, " ")
    if (m = COMPACT_RE.match(s))
      d, t = m[1], m[2]
      f.update(year: d[0, 4].to_i, mon: d[4, 2].to_i, mday: d[6, 2].to_i,
               hour: t[0, 2].to_i, min: t[2, 2].to_i, sec: t[4, 2].to_i)
      f[:usec] = Time.__usec__(m[3]) if m[3]
      f[:zone] = m[4] if m[4]
      return f
    end
    if (m = CLOCK_RE.match(s))
      f[:hour] = Time.__ampm__(m[1].to_i, m[5])
      f[:min] = m[2].to_i
      f[:sec] = m[3].to_i if m[3]
      f[:usec] = Time.__usec__(m[4]) if m[4]
      f[:zone] = m[6] if m[6] && !MONTH_RE.match?(m[6])
      s = "#{m.pre_match} #{m.post_match}"
    elsif (m = HOUR_AMPM_RE.match(s))
      f[:hour] = Time.__ampm__(m[1].to_i, m[2])
      s = "#{m.pre_match} #{m.post_match}"
    end
    if (m = YMD_DASH_RE.match(s))
      y = m[1].to_i
      y = Time.__year2__(y) if m[1].size == 2
      f.update(year: y, mon: m[2].to_i, mday: m[3].to_i)
    elsif (m = YMD_SLASH_RE.match(s))
      f.update(year: m[1].to_i, mon: m[2].to_i, mday: m[3].to_i)
    elsif (m = DMY_SLASH_RE.match(s))
      y = m[3].to_i
      y = Time.__year2__(y) if m[3].size == 2
      f.update(year: y, mon: m[2].to_i, mday: m[1].to_i)
    elsif (m = DAY_MONTH_RE.match(s))
      f.update(mon: Time.__month__(m[2]), mday: m[1].to_i)
      f[:year] = Time.__year_text__(m[3]) if m[3]
    elsif (m = MONTH_DAY_RE.match(s))
      f.update(mon: Time.__month__(m[1]), mday: m[2].to_i)
      f[:year] = m[3].to_i if m[3]
    elsif (m = MONTH_YEAR_RE.match(s))
      f.update(mon: Time.__month__(m[1]), year: m[2].to_i)
    elsif (m = YMD_DOT_RE.match(s))
      f.update(year: m[1].to_i, mon: m[2].to_i, mday: m[3].to_i)
    elsif (m = MD_SLASH_RE.match(s))
      f.update(mon: m[1].to_i, mday: m[2].to_i)
    elsif (m = YMD_COMPACT_RE.match(s))
      f.update(year: m[1].to_i, mon: m[2].to_i, mday: m[3].to_i)
    end
    f
  end

  def self.__year_text__(t)
    t.size == 2 ? Time.__year2__(t.to_i) : t.to_i
  end

  def self.__ampm__(hour, ap)
    return hour unless ap
    hour %= 12
    ap.downcase == "p" ? hour + 12 : hour
  end

  def self.__usec__(digits)
    (digits + "000000")[0, 6].to_i
  end

  # A Time from parsed fields; see the top of the file.
  def self.__make_time__(f, now)
    order = [:year, :mon, :mday, :hour, :min, :sec]
    first = order.index { |k| f.key?(k) } || order.size
    off = f[:zone] && Time.zone_offset(f[:zone])
    base = off && !f.key?(:year) ? (now.getutc + off) : now
    vals = order.each_with_index.map do |k, i|
      if f.key?(k) then f[k]
      elsif i < first then [base.year, base.mon, base.mday, base.hour, base.min, base.sec][i]
      else i < 3 ? 1 : 0
      end
    end
    year, mon, mday, hour, min, sec = vals
    usec = f[:usec] || 0
    raise ArgumentError, "mon out of range" unless (1..12).cover?(mon)
    raise ArgumentError, "argument out of range" unless (1..31).cover?(mday)
    raise ArgumentError, "hour out of range" unless (0..24).cover?(hour)
    raise ArgumentError, "min out of range" unless (0..59).cover?(min)
    raise ArgumentError, "sec out of range" unless (0..60).cover?(sec)
    raise ArgumentError, "argument out of range" if hour == 24 && (min != 0 || sec != 0)
    Time.__at_zone__(year, mon, mday, hour, min, sec, usec, f[:zone], off)
  end

  def self.__at_zone__(year, mon, mday, hour, min, sec, usec, zone, off)
    extra = (hour == 24 ? 86400 : 0) + (sec == 60 ? 1 : 0)   # 24:00 and leap seconds roll over
    hour = 0 if hour == 24
    sec = 59 if sec == 60
    if off.nil?
      t = Time.local(year, mon, mday, hour, min, sec, usec)
      return extra == 0 ? t : t + extra
    end
    utc = Time.utc(year, mon, mday, hour, min, sec, usec) + extra
    t = Time.at(utc.to_i - off, usec)
    return t.utc if Time.__zone_utc__?(zone)
    FIXED_OFFSETS ? t.getlocal(off) : t
  end

  def self.strptime(date, format, now = nil)
    str = date.to_str
    f = Time.__strptime_fields__(str, format.to_str)
    unless f
      raise ArgumentError, "invalid date or strptime format - '#{str}' '#{format}'"
    end
    if (f.keys - [:zone]).empty?
      raise ArgumentError, "no time information in #{str.inspect}"
    end
    if f.key?(:epoch)
      t = Time.at(f[:epoch], f[:usec] || 0)
      off = f[:zone] && Time.zone_offset(f[:zone])
      return off && FIXED_OFFSETS ? t.getlocal(off) : t
    end
    if f.key?(:yday)
      y = f[:year] || (now || Time.now).year
      d = Time.utc(y, 1, 1) + (f[:yday] - 1) * 86400
      f[:year] = y
      f[:mon] = d.mon
      f[:mday] = d.mday
    end
    Time.__make_time__(f, now || Time.now)
  end
end
