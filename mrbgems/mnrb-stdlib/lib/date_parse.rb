# require "date", third part: reading dates. Date._parse (free-form text) and Date._strptime (a
# format) return CRuby's fields hash (:year :mon :mday :yday :wday :cwyear :cweek :cwday :hour
# :min :sec :sec_fraction :zone :offset ...); Date.parse / strptime / iso8601 / rfc3339 /
# xmlschema / rfc2822 / httpdate (and DateTime's) complete the missing fields from today as
# CRuby does (fields above the first one given come from today, those below take their least
# value) and raise Date::Error "invalid date" when the text or the date is not valid.
# Free-form parsing covers CRuby's common shapes: ISO 8601 (extended, basic "20240115", week
# "2024-W03-1", ordinal "2024-015"), "Jan 15 2024", "15 Jan 2024", "January 15, 2024", a/b/c
# with "/" or "." (a year of 3+ digits first or last, else year/month/day; 2-digit years
# complete to 1969..2068), times with am/pm and zones, weekday names. Not there: era names
# (H31.04.30), "BC", ISO 8601 with 14-digit compact forms other than yyyymmddhhmmss.
class Date
  PARSE_MONTHS = %w(jan feb mar apr may jun jul aug sep oct nov dec).map(&:freeze).freeze
  PARSE_DAYS = %w(sun mon tue wed thu fri sat).map(&:freeze).freeze
  PARSE_ZONES = { "utc" => 0, "ut" => 0, "gmt" => 0, "z" => 0, "est" => -5, "edt" => -4,
                  "cst" => -6, "cdt" => -5, "mst" => -7, "mdt" => -6, "pst" => -8, "pdt" => -7,
                  "jst" => 9, "cet" => 1, "cest" => 2, "bst" => 1, "eet" => 2, "ist" => 5.5 }.freeze
  MONTH_PAT = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[[:alpha:]]*\.?'.freeze
  ZONE_PAT = '(z\b|[-+]\d{1,2}(?::?\d{2}(?::?\d{2})?)?\b|(?:utc|gmt|ut|[a-z]{3,4})\b)'.freeze
  PARSE_TIME_RE = Regexp.new('(\d{1,2}):(\d{2})(?::(\d{2})(?:[,.](\d+))?)?(?:\s*([ap])\.?m\.?\b)?(?:\s*' + ZONE_PAT + ')?', Regexp::IGNORECASE).freeze
  PARSE_HOUR_RE = Regexp.new('\b(\d{1,2})\s*([ap])\.?m\.?\b', Regexp::IGNORECASE).freeze
  PARSE_WDAY_RE = Regexp.new('\b(sun|mon|tue|wed|thu|fri|sat)[[:alpha:]]*\.?', Regexp::IGNORECASE).freeze
  PARSE_ISO_RE = Regexp.new('([-+]?\d{2,})-(\d{1,2})-(\d{1,2})').freeze
  PARSE_ISO_WEEK_RE = Regexp.new('\b(\d{4})-?w(\d{2})(?:-?(\d))?\b', Regexp::IGNORECASE).freeze
  PARSE_ISO_ORD_RE = Regexp.new('\b(\d{4})-(\d{3})\b').freeze
  PARSE_EU_RE = Regexp.new("('?\\d+)(?:st|nd|rd|th)?\\b\\s*-?\\s*" + MONTH_PAT + "(?:[\\s,-]*('?-?\\d+))?", Regexp::IGNORECASE).freeze
  PARSE_US_RE = Regexp.new('\b' + MONTH_PAT + "\\s*-?\\s*('?\\d+)(?:st|nd|rd|th)?\\b(?:\\s*,?\\s*-?\\s*('?-?\\d+))?", Regexp::IGNORECASE).freeze
  PARSE_MONTH_RE = Regexp.new('\b' + MONTH_PAT, Regexp::IGNORECASE).freeze
  PARSE_SLASH_RE = Regexp.new("('?-?\\d+)/\\s*('?\\d+)(?:/\\s*('?-?\\d+))?").freeze
  PARSE_DOT_RE = Regexp.new("('?-?\\d+)\\.\\s*('?\\d+)\\.\\s*('?-?\\d+)").freeze
  PARSE_DIGITS_RE = Regexp.new('(?:\A|[^\d])([-+]?)(\d{2,14})(?:\s*t?\s*(\d{2,6})(?:[,.](\d+))?)?(?:\s*' + ZONE_PAT + ')?(?:\z|[^\d])', Regexp::IGNORECASE).freeze
  PARSE_OFFSET_RE = Regexp.new('\A([-+])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?\z').freeze
  STRPTIME_DIGITS = (1..3).map { |n| Regexp.new('\A\s*(\d{1,' + n.to_s + '})').freeze }.freeze
  STRPTIME_BLANK = Regexp.new('\s').freeze
  STRPTIME_DIGIT = Regexp.new('\d').freeze
  STRPTIME_YEAR = Regexp.new('\A\s*([-+]?\d+)').freeze
  STRPTIME_YEAR4 = Regexp.new('\A\s*([-+]?\d{1,4})').freeze   # %Y right before a digit
  STRPTIME_CENTURY = Regexp.new('\A\s*([-+]?\d{1,2})').freeze
  STRPTIME_FRACTION = Regexp.new('\A\d+').freeze
  STRPTIME_EPOCH = Regexp.new('\A-?\d+').freeze
  STRPTIME_COMPOSITE = {
    "F" => "%Y-%m-%d", "T" => "%H:%M:%S", "D" => "%m/%d/%y", "x" => "%m/%d/%y", "X" => "%H:%M:%S",
    "R" => "%H:%M", "r" => "%I:%M:%S %p", "c" => "%a %b %e %H:%M:%S %Y", "v" => "%e-%b-%Y",
    "+" => "%a %b %e %H:%M:%S %Z %Y",
  }.each_value(&:freeze).freeze
  STRPTIME_SPACE = Regexp.new('\A\s*').freeze
  STRPTIME_ZONE = Regexp.new('\A(?:[-+]\d{1,2}(?::?\d{2}(?::?\d{2})?)?|z\b|[a-z]{1,5}\b)', Regexp::IGNORECASE).freeze
  ISO8601_DATE_RE = Regexp.new('\A\s*(?:([-+]?\d{2,}|-)-(\d{2})-(\d{2})|([-+]?\d{4})(\d{2})(\d{2})|(\d{4})-(\d{3})|(\d{4})-?w(\d{2})-?(\d))(?:t(\d{2}):?(\d{2})(?::?(\d{2})(?:[,.](\d+))?)?\s*' + ZONE_PAT + '?)?\s*\z', Regexp::IGNORECASE).freeze
  RFC2822_RE = Regexp.new('\A\s*(?:(sun|mon|tue|wed|thu|fri|sat)\s*,\s*)?(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\s+(-?\d{2,})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s*([-+]\d{4}|ut|gmt|e[sd]t|c[sd]t|m[sd]t|p[sd]t|[a-ik-z])\s*\z', Regexp::IGNORECASE).freeze
  HTTPDATE_RE = Regexp.new('\A\s*(sun|mon|tue|wed|thu|fri|sat)\s*,\s*(\d{2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\s+(-?\d{4})\s+(\d{2}):(\d{2}):(\d{2})\s+(gmt)\s*\z', Regexp::IGNORECASE).freeze
  if respond_to?(:private_constant, true)
    private_constant :PARSE_MONTHS, :PARSE_DAYS, :PARSE_ZONES, :MONTH_PAT, :ZONE_PAT,
                     :PARSE_TIME_RE, :PARSE_HOUR_RE, :PARSE_WDAY_RE, :PARSE_ISO_RE,
                     :PARSE_ISO_WEEK_RE, :PARSE_ISO_ORD_RE, :PARSE_EU_RE, :PARSE_US_RE,
                     :PARSE_MONTH_RE, :PARSE_SLASH_RE, :PARSE_DOT_RE, :PARSE_DIGITS_RE,
                     :PARSE_OFFSET_RE, :STRPTIME_DIGITS, :STRPTIME_BLANK, :STRPTIME_DIGIT,
                     :STRPTIME_YEAR, :STRPTIME_YEAR4, :STRPTIME_CENTURY, :STRPTIME_FRACTION, :STRPTIME_EPOCH, :STRPTIME_COMPOSITE, :STRPTIME_SPACE, :STRPTIME_ZONE,
                     :ISO8601_DATE_RE, :RFC2822_RE, :HTTPDATE_RE
  end

  class << self
    # Seconds east of UTC of a zone ("+09:00", "-0500", "+9", "Z", "UTC", "EST"), or nil.
    def __zone_offset__(zone)
      z = zone.to_s.strip
      if (m = PARSE_OFFSET_RE.match(z))
        s = m[2].to_i * 3600 + m[3].to_i * 60 + m[4].to_i
        return m[1] == "-" ? -s : s
      end
      h = PARSE_ZONES[z.downcase]
      h && (h * 3600).to_i
    end

    def __check_limit__(str, limit)
      str = str.to_str
      if limit && str.size > limit
        raise ArgumentError, "string length (#{str.size}) exceeds the limit #{limit}"
      end
      str
    end

    # A year read from text: two digits (no sign, no apostrophe) complete to 1969..2068 with comp.
    def __year__(s, comp)
      y = s.delete("'").to_i
      y += (y >= 69 ? 1900 : 2000) if comp && s =~ Regexp.new('\A\d{1,2}\z')
      y
    end

    def __set_zone__(h, z)
      return unless z
      h[:zone] = z
      h[:offset] = __zone_offset__(z)
    end

    # Blanks out m's text in str so that later patterns do not read it again.
    def __consume__(str, m)
      str[m.begin(0), m[0].size] = " " * m[0].size
    end

    def _parse(str, comp = true, limit: 128)
      str = __check_limit__(str, limit).dup
      h = {}
      if (m = PARSE_TIME_RE.match(str))
        hour = m[1].to_i
        hour = hour % 12 + (m[5].downcase == "p" ? 12 : 0) if m[5]
        h[:hour] = hour
        h[:min] = m[2].to_i
        h[:sec] = m[3].to_i if m[3]
        h[:sec_fraction] = Rational(m[4].to_i, 10**m[4].size) if m[4]
        __set_zone__(h, m[6])
        __consume__(str, m)
      elsif (m = PARSE_HOUR_RE.match(str))
        h[:hour] = m[1].to_i % 12 + (m[2].downcase == "p" ? 12 : 0)
        __consume__(str, m)
      end
      if (m = PARSE_WDAY_RE.match(str))
        h[:wday] = PARSE_DAYS.index(m[1].downcase)
        __consume__(str, m)
      end
      if (m = PARSE_ISO_RE.match(str))
        h[:year] = __year__(m[1], comp)
        h[:mon] = m[2].to_i
        h[:mday] = m[3].to_i
        __consume__(str, m)
      elsif (m = PARSE_ISO_WEEK_RE.match(str))
        h[:cwyear] = m[1].to_i
        h[:cweek] = m[2].to_i
        h[:cwday] = m[3].to_i if m[3]
        __consume__(str, m)
      elsif (m = PARSE_ISO_ORD_RE.match(str))
        h[:year] = m[1].to_i
        h[:yday] = m[2].to_i
        __consume__(str, m)
      elsif (m = PARSE_EU_RE.match(str))
        __s3e__(h, m[3], PARSE_MONTHS.index(m[2].downcase) + 1, m[1], comp)
        __consume__(str, m)
      elsif (m = PARSE_US_RE.match(str))
        __s3e__(h, m[3], PARSE_MONTHS.index(m[1].downcase) + 1, m[2], comp)
        __consume__(str, m)
      elsif (m = PARSE_MONTH_RE.match(str))
        h[:mon] = PARSE_MONTHS.index(m[1].downcase) + 1
        __consume__(str, m)
      elsif (m = PARSE_SLASH_RE.match(str) || PARSE_DOT_RE.match(str))
        __abc__(h, m[1], m[2], m[3], comp)
        __consume__(str, m)
      elsif (m = PARSE_DIGITS_RE.match(str))
        __digits__(h, m, comp)
      end
      h
    end

    # d month y, with y possibly absent or d really a year ("Jan 2024").
    def __s3e__(h, y, mon, d, comp)
      if y.nil? && d && d.delete("'").size > 2
        y, d = d, nil
      end
      h[:year] = __year__(y, comp) if y
      h[:mon] = mon
      h[:mday] = d.delete("'").to_i if d
    end

    # a/b/c or a.b.c: year first when a is long, year last when c is, else y/m/d.
    def __abc__(h, a, b, c, comp)
      if c.nil?
        h[:mon] = a.to_i
        h[:mday] = b.to_i
      elsif c.delete("'-").size > 2 && a.delete("'-").size <= 2
        h[:year] = __year__(c, comp)
        h[:mon] = b.to_i
        h[:mday] = a.to_i
      else
        h[:year] = __year__(a, comp)
        h[:mon] = b.to_i
        h[:mday] = c.to_i
      end
    end

    # A run of digits: 2 mday, 3 yday, 4 mmdd, 6 yymmdd, 8 yyyymmdd, 14 yyyymmddhhmmss; then a time.
    def __digits__(h, m, comp)
      s = m[2]
      case s.size
      when 2 then h[:mday] = s.to_i
      when 3 then h[:yday] = s.to_i
      when 4 then h[:mon], h[:mday] = s[0, 2].to_i, s[2, 2].to_i
      when 6 then h[:year], h[:mon], h[:mday] = __year__(s[0, 2], comp), s[2, 2].to_i, s[4, 2].to_i
      when 8, 14
        h[:year] = (m[1] + s[0, 4]).to_i
        h[:mon], h[:mday] = s[4, 2].to_i, s[6, 2].to_i
        if s.size == 14
          h[:hour], h[:min], h[:sec] = s[8, 2].to_i, s[10, 2].to_i, s[12, 2].to_i
        end
      else return
      end
      if (t = m[3])
        h[:hour] = t[0, 2].to_i
        h[:min] = t[2, 2].to_i if t.size >= 4
        h[:sec] = t[4, 2].to_i if t.size >= 6
        h[:sec_fraction] = Rational(m[4].to_i, 10**m[4].size) if m[4] && !m[4].empty?
      end
      __set_zone__(h, m[5])
    end

    # Fills what h lacks and returns [jd, hour, min, sec (with fraction), offset in seconds];
    # Date::Error when h names no date or an invalid one.
    def __complete__(h, sg, need_date)
      today = nil
      now = -> { today ||= Date.today(sg) }
      jd =
        if h[:seconds]
          of = h[:offset] || 0
          s = h[:seconds] + of
          days = (s / 86400).floor
          rem = s - days * 86400
          return [UNIX_EPOCH_JD + days, (rem / 3600).floor, (rem / 60).floor % 60, rem - (rem / 60).floor * 60, of]
        elsif h[:jd]
          h[:jd]
        elsif h[:yday]
          __valid_ordinal__(h[:year] || now.().year, h[:yday], sg)
        elsif h[:cweek] || h[:cwyear] || (h[:cwday] && !h[:year] && !h[:mon] && !h[:mday])
          __valid_commercial__(h[:cwyear] || now.().cwyear, h[:cweek] || (h[:cwyear] ? 1 : now.().cweek),
                               h[:cwday] || (h[:cweek] ? 1 : now.().cwday), sg)
        elsif h[:wnum0] || h[:wnum1]
          __week_number__(h, h[:year] || now.().year, sg)
        elsif h[:year] || h[:mon] || h[:mday]
          y = h[:year] || now.().year
          mon = h[:mon] || (h[:year] ? 1 : now.().mon)
          __valid_civil__(y, mon, h[:mday] || 1, sg)
        elsif h[:wday]
          now.().jd - now.().wday + h[:wday]
        elsif !need_date && (h[:hour] || h[:min] || h[:sec])
          now.().jd
        else
          raise Error, "invalid date"
        end
      raise Error, "invalid date" unless jd
      sec = (h[:sec] || 0)
      sec = 59 if sec == 60
      sec += h[:sec_fraction] if h[:sec_fraction]
      [jd, h[:hour] || 0, h[:min] || 0, sec, h[:offset] || 0]
    end

    # %U (Sunday first, wnum0) or %W (Monday first, wnum1) with a weekday.
    def __week_number__(h, y, sg)
      jan1 = __valid_ordinal__(y, 1, sg) or return nil
      wd = (jan1 + 1) % 7
      if h[:wnum0]
        first_sunday = jan1 + (7 - wd) % 7
        first_sunday + (h[:wnum0] - 1) * 7 + (h[:wday] || (h[:cwday] || 0) % 7)
      else
        first_monday = jan1 + (8 - wd) % 7
        first_monday + (h[:wnum1] - 1) * 7 + ((h[:wday] || h[:cwday] || 1) + 6) % 7
      end
    end

    def __date_from__(h, sg)
      jd, = __complete__(h, sg, true)
      __from_jd__(jd, sg)
    end

    def parse(str = "-4712-01-01", comp = true, sg = ITALY, limit: 128)
      __date_from__(_parse(str, comp, limit: limit), sg)
    end

    def _strptime(str, fmt = "%F")
      h = {}
      rest = __strptime__(str.to_str, fmt.to_str, h)
      return nil unless rest
      h[:leftover] = rest unless rest.empty?
      if (c = h.delete(:_cent))
        h[:year] = c * 100 + h[:year] % 100 if h.key?(:year)
        h[:cwyear] = c * 100 + h[:cwyear] % 100 if h.key?(:cwyear)
      end
      if (merid = h.delete(:_merid))
        h[:hour] = (h[:hour] || 0) % 12 + merid
      end
      h
    end

    # Reads str by fmt into h; what is left of str, or nil when str does not fit.
    def __strptime__(str, fmt, h)
      i = 0
      while i < fmt.size
        c = fmt[i]
        if c == "%" && i + 1 < fmt.size
          i += 1
          d = fmt[i]
          d = fmt[i += 1] while d == "-" || d == "_" || d == "0" || d == "^" || d == "#" || d == ":"
          i += 1
          if (sub = STRPTIME_COMPOSITE[d])
            str = __strptime__(str, sub, h) or return nil
            next
          end
          str = __strptime_one__(str, d, h, fmt[i]) or return nil
        elsif STRPTIME_BLANK.match?(c)
          str = str.sub(STRPTIME_SPACE, "")
          i += 1
        else
          return nil unless str[0] && str[0].downcase == c.downcase
          str = str[1..-1]
          i += 1
        end
      end
      str
    end

    # One directive d at the head of str; the rest, or nil.
    def __strptime_one__(str, d, h, following)
      num = lambda do |max_digits, lo, hi|
        m = STRPTIME_DIGITS[max_digits - 1].match(str) or return nil
        v = m[1].to_i
        return nil if v < lo || v > hi
        str = m.post_match
        v
      end
      case d
      when "Y", "G", "C"
        re = if d == "C" then STRPTIME_CENTURY
             elsif d == "Y" && following && STRPTIME_DIGIT.match?(following) then STRPTIME_YEAR4
             else STRPTIME_YEAR
             end
        m = re.match(str) or return nil
        h[d == "Y" ? :year : d == "G" ? :cwyear : :_cent] = m[1].to_i
        return m.post_match
      when "y", "g"
        v = num.(2, 0, 99) or return nil
        h[d == "y" ? :year : :cwyear] = v + (v >= 69 ? 1900 : 2000)
      when "m" then (h[:mon] = num.(2, 1, 12)) or return nil
      when "d", "e" then (h[:mday] = num.(2, 1, 31)) or return nil
      when "j" then (h[:yday] = num.(3, 1, 366)) or return nil
      when "H", "k" then (h[:hour] = num.(2, 0, 24)) or return nil
      when "I", "l" then (h[:hour] = num.(2, 1, 12)) or return nil
      when "M" then (h[:min] = num.(2, 0, 59)) or return nil
      when "S" then (h[:sec] = num.(2, 0, 60)) or return nil
      when "L", "N"
        m = STRPTIME_FRACTION.match(str) or return nil
        h[:sec_fraction] = Rational(m[0].to_i, 10**m[0].size)
        return m.post_match
      when "s", "Q"
        m = STRPTIME_EPOCH.match(str) or return nil
        v = m[0].to_i
        h[:seconds] = d == "s" ? v : Rational(v, 1000)
        return m.post_match
      when "u" then (h[:cwday] = num.(1, 1, 7)) or return nil
      when "w" then (h[:wday] = num.(1, 0, 6)) or return nil
      when "U" then (h[:wnum0] = num.(2, 0, 53)) or return nil
      when "W" then (h[:wnum1] = num.(2, 0, 53)) or return nil
      when "V" then (h[:cweek] = num.(2, 1, 53)) or return nil
      when "b", "B", "h"
        m = Regexp.new('\A(' + MONTHNAMES.compact.map { |n| n + "|" + n[0, 3] }.join("|") + ')', Regexp::IGNORECASE).match(str) or return nil
        h[:mon] = PARSE_MONTHS.index(m[1][0, 3].downcase) + 1
        return m.post_match
      when "a", "A"
        m = Regexp.new('\A(' + DAYNAMES.map { |n| n + "|" + n[0, 3] }.join("|") + ')', Regexp::IGNORECASE).match(str) or return nil
        h[:wday] = PARSE_DAYS.index(m[1][0, 3].downcase)
        return m.post_match
      when "p", "P"
        m = Regexp.new('\A([ap])(?:m\b|\.m\.)', Regexp::IGNORECASE).match(str) or return nil
        h[:_merid] = m[1].downcase == "p" ? 12 : 0
        return m.post_match
      when "z", "Z"
        m = STRPTIME_ZONE.match(str) or return nil
        h[:zone] = m[0]
        h[:offset] = __zone_offset__(m[0])
        return m.post_match
      when "n", "t"
        return str.sub(STRPTIME_SPACE, "")
      when "%"
        return str[0] == "%" ? str[1..-1] : nil
      else
        return nil
      end
      str
    end

    def strptime(str = "-4712-01-01", fmt = "%F", sg = ITALY)
      h = _strptime(str, fmt)
      raise Error, "invalid date" if h.nil?   # CRuby ignores a leftover here
      __date_from__(h, sg)
    end

    def _iso8601(str, limit: 128)
      m = ISO8601_DATE_RE.match(__check_limit__(str, limit)) or return {}
      h = {}
      if m[1]
        h[:year], h[:mon], h[:mday] = __year__(m[1], true), m[2].to_i, m[3].to_i
      elsif m[4]
        h[:year], h[:mon], h[:mday] = m[4].to_i, m[5].to_i, m[6].to_i
      elsif m[7]
        h[:year], h[:yday] = m[7].to_i, m[8].to_i
      else
        h[:cwyear], h[:cweek], h[:cwday] = m[9].to_i, m[10].to_i, m[11].to_i
      end
      if m[12]
        h[:hour], h[:min] = m[12].to_i, m[13].to_i
        h[:sec] = m[14].to_i if m[14]
        h[:sec_fraction] = Rational(m[15].to_i, 10**m[15].size) if m[15]
        __set_zone__(h, m[16])
      end
      h
    end

    def iso8601(str = "-4712-01-01", sg = ITALY, limit: 128)
      __date_from__(_iso8601(str, limit: limit), sg)
    end

    def _rfc3339(str, limit: 128)
      h = _iso8601(str, limit: limit)
      h.key?(:hour) && h.key?(:zone) && h.key?(:mon) ? h : {}
    end

    def rfc3339(str = "-4712-01-01T00:00:00+00:00", sg = ITALY, limit: 128)
      __date_from__(_rfc3339(str, limit: limit), sg)
    end

    def _xmlschema(str, limit: 128)
      _iso8601(str, limit: limit)
    end

    def xmlschema(str = "-4712-01-01", sg = ITALY, limit: 128)
      __date_from__(_xmlschema(str, limit: limit), sg)
    end

    def _rfc2822(str, limit: 128)
      m = RFC2822_RE.match(__check_limit__(str, limit)) or return {}
      h = {}
      h[:wday] = PARSE_DAYS.index(m[1].downcase) if m[1]
      h[:mday] = m[2].to_i
      h[:mon] = PARSE_MONTHS.index(m[3].downcase) + 1
      y = m[4].to_i
      y += (y >= 50 ? 1900 : 2000) if m[4].size < 4
      h[:year] = y
      h[:hour], h[:min] = m[5].to_i, m[6].to_i
      h[:sec] = m[7].to_i if m[7]
      h[:zone] = m[8]
      h[:offset] = __zone_offset__(m[8]) || 0
      h
    end
    alias _rfc822 _rfc2822

    def rfc2822(str = "Mon, 1 Jan -4712 00:00:00 +0000", sg = ITALY, limit: 128)
      __date_from__(_rfc2822(str, limit: limit), sg)
    end
    alias rfc822 rfc2822

    def _httpdate(str, limit: 128)
      m = HTTPDATE_RE.match(__check_limit__(str, limit)) or return {}
      { wday: PARSE_DAYS.index(m[1].downcase), mday: m[2].to_i,
        mon: PARSE_MONTHS.index(m[3].downcase) + 1, year: m[4].to_i, hour: m[5].to_i,
        min: m[6].to_i, sec: m[7].to_i, zone: m[8], offset: 0 }
    end

    def httpdate(str = "Mon, 01 Jan -4712 00:00:00 GMT", sg = ITALY, limit: 128)
      __date_from__(_httpdate(str, limit: limit), sg)
    end
  end
end

class DateTime
  DT_DEFAULT = "-4712-01-01T00:00:00+00:00".freeze
  DT_RFC2822 = "Mon, 1 Jan -4712 00:00:00 +0000".freeze
  DT_HTTPDATE = "Mon, 01 Jan -4712 00:00:00 GMT".freeze
  private_constant :DT_DEFAULT, :DT_RFC2822, :DT_HTTPDATE if respond_to?(:private_constant, true)

  class << self
    def __datetime_from__(h, sg)
      jd, hour, min, sec, of = __complete__(h, sg, false)
      __make__(jd, hour, min, sec, of, sg)
    end

    def parse(str = "-4712-01-01T00:00:00+00:00", comp = true, sg = Date::ITALY, limit: 128)
      __datetime_from__(_parse(str, comp, limit: limit), sg)
    end

    def strptime(str = "-4712-01-01T00:00:00+00:00", fmt = "%FT%T%z", sg = Date::ITALY)
      h = _strptime(str, fmt)
      raise Date::Error, "invalid date" if h.nil?
      __datetime_from__(h, sg)
    end

    # Date's fixed-format readers, completed as a DateTime. (Plain defs, not define_method: a
    # method defined with a Proc cannot be called from another Ractor.)
    def __read__(reader, str, sg, limit)
      __datetime_from__(__send__(reader, str, limit: limit), sg)
    end
    private :__read__

    def iso8601(str = DT_DEFAULT, sg = Date::ITALY, limit: 128); __read__(:_iso8601, str, sg, limit); end
    def rfc3339(str = DT_DEFAULT, sg = Date::ITALY, limit: 128); __read__(:_rfc3339, str, sg, limit); end
    def xmlschema(str = DT_DEFAULT, sg = Date::ITALY, limit: 128); __read__(:_xmlschema, str, sg, limit); end
    def rfc2822(str = DT_RFC2822, sg = Date::ITALY, limit: 128); __read__(:_rfc2822, str, sg, limit); end
    def httpdate(str = DT_HTTPDATE, sg = Date::ITALY, limit: 128); __read__(:_httpdate, str, sg, limit); end
    alias rfc822 rfc2822
  end
end
