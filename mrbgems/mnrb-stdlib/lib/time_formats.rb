# require "time", second part: Time.strptime's format reader, the fixed formats (ISO 8601/XML
# Schema, RFC 2822, HTTP dates) and Time's formatters for them. See time.rb for how fields make
# a Time.
class Time
  # What each strptime directive reads (compiled once).
  STRPTIME_FIELDS = {}
  STRPTIME_FIELDS["Y"] = Regexp.new('\A[-+]?\d+')
  %w(C y m d e H k I l M S).each { |d| STRPTIME_FIELDS[d] = Regexp.new('\A\s?\d{1,2}') }
  STRPTIME_FIELDS["j"] = Regexp.new('\A\d{1,3}')
  STRPTIME_FIELDS["L"] = STRPTIME_FIELDS["N"] = Regexp.new('\A\d+')
  STRPTIME_FIELDS["s"] = Regexp.new('\A-?\d+')
  STRPTIME_FIELDS["b"] = STRPTIME_FIELDS["h"] = STRPTIME_FIELDS["B"] = /\A#{MONTH_RE}/
  STRPTIME_FIELDS["a"] = STRPTIME_FIELDS["A"] =
    Regexp.new('\A(?:sun|mon|tue|wed|thu|fri|sat)[a-z]*', Regexp::IGNORECASE)
  STRPTIME_FIELDS["p"] = STRPTIME_FIELDS["P"] = Regexp.new('\A[ap]\.?m\.?', Regexp::IGNORECASE)
  STRPTIME_FIELDS["z"] = STRPTIME_FIELDS["Z"] = Regexp.new('\A(?:[+-]\d\d(?::?\d\d(?::?\d\d)?)?|[A-Za-z]+)')
  STRPTIME_FIELDS["%"] = Regexp.new('\A%')
  STRPTIME_FIELDS["n"] = STRPTIME_FIELDS["t"] = Regexp.new('\A\s+')
  private_constant :STRPTIME_FIELDS if respond_to?(:private_constant, true)

  # Reads str by format; a Hash of fields, or nil when str does not fit. What follows the last
  # directive is ignored, as CRuby's strptime ignores it.
  def self.__strptime_fields__(str, format)
    f = {}
    pos = 0
    fmt = format.gsub("%F", "%Y-%m-%d").gsub("%T", "%H:%M:%S").gsub("%D", "%m/%d/%y")
                .gsub("%R", "%H:%M").gsub("%r", "%I:%M:%S %p").gsub("%c", "%a %b %e %H:%M:%S %Y")
                .gsub("%x", "%m/%d/%y").gsub("%X", "%H:%M:%S")
    i = 0
    ampm = nil
    while i < fmt.size
      c = fmt[i]
      if c != "%"
        if " \t\n\v\f\r".include?(c)
          pos += 1 while pos < str.size && " \t\n\v\f\r".include?(str[pos])
        else
          return nil unless str[pos] == c
          pos += 1
        end
        i += 1
        next
      end
      d = fmt[i + 1]
      i += 2
      rest = str[pos..-1] || ""
      re = STRPTIME_FIELDS[d] or return nil
      m = re.match(rest)
      return nil unless m
      v = m[0]
      pos += v.size
      case d
      when "Y" then f[:year] = v.to_i
      when "y" then f[:year] = Time.__year2__(v.to_i)
      when "m" then f[:mon] = v.to_i
      when "d", "e" then f[:mday] = v.to_i
      when "H", "k" then f[:hour] = v.to_i
      when "I", "l" then f[:hour] = v.to_i
      when "M" then f[:min] = v.to_i
      when "S" then f[:sec] = v.to_i
      when "j" then f[:yday] = v.to_i
      when "L", "N" then f[:usec] = Time.__usec__(v)
      when "s" then f[:epoch] = v.to_i
      when "b", "h", "B" then f[:mon] = Time.__month__(v)
      when "p", "P" then ampm = v[0].downcase
      when "z", "Z" then f[:zone] = v
      end
    end
    if ampm
      f[:hour] = Time.__ampm__(f[:hour] || 0, ampm)
    end
    return nil if f.key?(:mon) && !(1..12).cover?(f[:mon])
    return nil if f.key?(:mday) && !(1..31).cover?(f[:mday])
    f
  end

  def self.xmlschema(time)
    m = Regexp.new('\A\s*(-?\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d(?::?\d\d)?)?\s*\z', Regexp::IGNORECASE).match(time.to_s)
    raise ArgumentError, "invalid xmlschema format: #{time.inspect}" unless m
    f = { year: m[1].to_i, mon: m[2].to_i, mday: m[3].to_i, hour: m[4].to_i, min: m[5].to_i, sec: m[6].to_i }
    f[:usec] = Time.__usec__(m[7]) if m[7]
    f[:zone] = m[8] if m[8]
    Time.__make_time__(f, Time.now)
  end

  def self.iso8601(time)
    xmlschema(time)
  end

  def self.rfc2822(date)
    re = Regexp.new('\A\s*(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s*,\s*)?(\d{1,2})\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(\d{2,})\s+(\d\d):(\d\d)(?::(\d\d))?\s*([+-]\d{4}|UT|GMT|EST|EDT|CST|CDT|MST|MDT|PST|PDT|[A-IK-Z])\s*\z', Regexp::IGNORECASE)
    m = re.match(date.to_s)
    raise ArgumentError, "not RFC 2822 compliant date: #{date.inspect}" unless m
    year = m[3].to_i
    year += (year < 50 ? 2000 : 1900) if m[3].size < 4
    f = { year: year, mon: Time.__month__(m[2]), mday: m[1].to_i,
          hour: m[4].to_i, min: m[5].to_i, sec: m[6].to_i, zone: m[7] }
    f[:zone] = "+0000" unless Time.zone_offset(m[7])   # military letters: RFC 2822 says treat as -0000
    Time.__make_time__(f, Time.now)
  end

  def self.rfc822(date)
    rfc2822(date)
  end

  def self.httpdate(date)
    s = date.to_s
    if (m = Regexp.new('\A\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),\x20(\d\d)\x20(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\x20(\d{4})\x20(\d\d):(\d\d):(\d\d)\x20GMT\s*\z', Regexp::IGNORECASE).match(s))
      y, mon, d = m[3].to_i, m[2], m[1].to_i
    elsif (m = Regexp.new('\A\s*(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),\x20(\d\d)-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d\d)\x20(\d\d):(\d\d):(\d\d)\x20GMT\s*\z', Regexp::IGNORECASE).match(s))
      y, mon, d = m[3].to_i, m[2], m[1].to_i
      y += (y < 50 ? 2000 : 1900)
    elsif (m = Regexp.new('\A\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\x20(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\x20(\d\d|\x20\d)\x20(\d\d):(\d\d):(\d\d)\x20(\d{4})\s*\z', Regexp::IGNORECASE).match(s))
      return Time.utc(m[6].to_i, Time.__month__(m[1]), m[2].to_i, m[3].to_i, m[4].to_i, m[5].to_i)
    else
      raise ArgumentError, "not RFC 2616 compliant date: #{date.inspect}"
    end
    Time.utc(y, Time.__month__(mon), d, m[4].to_i, m[5].to_i, m[6].to_i)
  end

  def xmlschema(fraction_digits = 0)
    digits = fraction_digits.to_i
    s = strftime("%Y-%m-%dT%H:%M:%S")
    if digits > 0
      frac = format("%06d", usec) + "000"
      s << "." << (digits <= 9 ? frac[0, digits] : frac + "0" * (digits - 9))
    end
    s << (utc? ? "Z" : __colon_offset__)
  end
  alias iso8601 xmlschema

  def rfc2822
    strftime("%a, %d %b %Y %H:%M:%S ") + (utc? ? "-0000" : strftime("%z"))
  end
  alias rfc822 rfc2822

  def httpdate
    getutc.strftime("%a, %d %b %Y %H:%M:%S GMT")
  end

  def __colon_offset__
    off = utc_offset
    sign = off < 0 ? "-" : "+"
    off = off.abs
    format("%s%02d:%02d", sign, off / 3600, off % 3600 / 60)
  end
end
