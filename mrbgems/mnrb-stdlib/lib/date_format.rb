# require "date", second part: Date#strftime and the formatters built on it (iso8601, rfc3339,
# rfc2822, httpdate, jisx0301 is not there). strftime is written here rather than borrowed from
# Time#strftime: a Date may lie before 1970 or far outside Time's range, and Date has directives
# mnrb's Time lacks (%G %V %g %v %+ %Q). Directive syntax as CRuby's: %[flags][width][:]conv,
# flags - (no padding) _ (spaces) 0 (zeros) ^ (upcase) # (change case).
class Date
  STRFTIME_RE = Regexp.new('%([-_0^#]*)(\d*)(:{0,3})([a-zA-Z%+])').freeze
  STRFTIME_COMPOSITE = {
    "c" => "%a %b %e %H:%M:%S %Y", "x" => "%m/%d/%y", "X" => "%H:%M:%S", "D" => "%m/%d/%y",
    "F" => "%Y-%m-%d", "T" => "%H:%M:%S", "R" => "%H:%M", "r" => "%I:%M:%S %p",
    "v" => "%e-%^b-%Y", "+" => "%a %b %e %H:%M:%S %Z %Y",
  }.each_value(&:freeze).freeze
  private_constant :STRFTIME_RE, :STRFTIME_COMPOSITE if respond_to?(:private_constant, true)

  def strftime(fmt = "%F")
    fmt.to_str.gsub(STRFTIME_RE) do
      m = Regexp.last_match
      __strftime_one__(m[1], m[2], m[3].size, m[4]) || m[0]
    end
  end

  # One directive, or nil when it is not one (then it is copied as written, as CRuby does).
  def __strftime_one__(flags, width, colons, conv)
    w = width.empty? ? nil : width.to_i
    if (composite = STRFTIME_COMPOSITE[conv])
      s = strftime(composite)
      s = s.upcase if flags.include?("^")
      return w && s.size < w ? s.rjust(w, flags.include?("0") ? "0" : " ") : s
    end
    df = __local_df__
    case conv
    when "Y"
      y = year
      return __num__(y, flags, w || (y < 0 ? 5 : 4), "0")
    when "C" then return __num__(year.div(100), flags, w || 2, "0")
    when "y" then return __num__(year % 100, flags, w || 2, "0")
    when "m" then return __num__(mon, flags, w || 2, "0")
    when "d" then return __num__(mday, flags, w || 2, "0")
    when "e" then return __num__(mday, flags, w || 2, " ")
    when "j" then return __num__(yday, flags, w || 3, "0")
    when "H" then return __num__(df / 3600, flags, w || 2, "0")
    when "k" then return __num__(df / 3600, flags, w || 2, " ")
    when "I" then return __num__((df / 3600 + 11) % 12 + 1, flags, w || 2, "0")
    when "l" then return __num__((df / 3600 + 11) % 12 + 1, flags, w || 2, " ")
    when "M" then return __num__(df % 3600 / 60, flags, w || 2, "0")
    when "S" then return __num__(df % 60, flags, w || 2, "0")
    when "L" then return __frac__(w || 3)
    when "N" then return __frac__(w || 9)
    when "u" then return __num__(cwday, flags, w || 1, "0")
    when "w" then return __num__(wday, flags, w || 1, "0")
    when "U" then return __num__((yday + 6 - wday) / 7, flags, w || 2, "0")
    when "W" then return __num__((yday + 6 - (wday + 6) % 7) / 7, flags, w || 2, "0")
    when "G"
      y = cwyear
      return __num__(y, flags, w || (y < 0 ? 5 : 4), "0")
    when "g" then return __num__(cwyear % 100, flags, w || 2, "0")
    when "V" then return __num__(cweek, flags, w || 2, "0")
    when "s" then return __num__(__epoch_s__, flags, w || 1, "0")
    when "Q" then return __num__(__epoch_s__ * 1000 + @sf / 1_000_000, flags, w || 1, "0")
    when "A" then return __text__(DAYNAMES[wday], flags, w)
    when "a" then return __text__(ABBR_DAYNAMES[wday], flags, w)
    when "B" then return __text__(MONTHNAMES[mon], flags, w)
    when "b", "h" then return __text__(ABBR_MONTHNAMES[mon], flags, w)
    when "p", "P"
      s = df < 43200 ? "AM" : "PM"
      s = s.downcase if conv == "P" || flags.include?("#")
      return __text__(s, flags.delete("#"), w)
    when "Z" then return __text__(__zone_s__(true), flags, w)
    when "z" then return __offset_str__(colons, flags, w)
    when "n" then return "\n"
    when "t" then return "\t"
    when "%" then return "%"
    end
    nil
  end
  private :__strftime_one__

  def __zone_s__(colon)
    a = @of.abs
    format(colon ? "%s%02d:%02d" : "%s%02d%02d", @of < 0 ? "-" : "+", a / 3600, a % 3600 / 60)
  end

  def __epoch_s__
    (@jd - UNIX_EPOCH_JD) * 86400 + @df
  end

  def __num__(v, flags, width, pad)
    pad = " " if flags.include?("_")
    pad = "0" if flags.include?("0")
    s = v.abs.to_s
    return (v < 0 ? "-" : "") + s if flags.include?("-")
    s = (v < 0 ? "-" : "") + s
    s.size < width ? (pad == "0" && v < 0 ? "-" + s[1..-1].rjust(width - 1, "0") : s.rjust(width, pad)) : s
  end

  def __frac__(digits)
    s = format("%09d", @sf)
    digits <= 9 ? s[0, digits] : s + "0" * (digits - 9)
  end

  def __text__(s, flags, width)
    s = s.upcase if flags.include?("^") || flags.include?("#")
    return s if flags.include?("-") || width.nil? || s.size >= width
    s.rjust(width, flags.include?("0") ? "0" : " ")
  end

  def __offset_str__(colons, flags, width)
    a = @of.abs
    h, m, s = a / 3600, a % 3600 / 60, a % 60
    body = case colons
           when 0 then format("%02d%02d", h, m)
           when 1 then format("%02d:%02d", h, m)
           else format("%02d:%02d:%02d", h, m, s)
           end
    sign = @of < 0 ? "-" : "+"
    return sign + body unless width && width > body.size + 1
    if flags.include?("_")
      (sign + body.sub(Regexp.new('\A0'), " ")).rjust(width, " ")
    else
      sign + body.rjust(width - 1, "0")
    end
  end
  private :__num__, :__frac__, :__text__, :__offset_str__

  def iso8601
    strftime("%Y-%m-%d")
  end
  alias xmlschema iso8601

  def rfc3339
    strftime("%Y-%m-%dT%H:%M:%S%:z")
  end

  def rfc2822
    strftime("%a, %-d %b %Y %H:%M:%S %z")
  end
  alias rfc822 rfc2822

  def httpdate
    new_offset_utc = self.class.__new__(@jd, @df, @sf, 0, @sg)
    new_offset_utc.strftime("%a, %d %b %Y %H:%M:%S GMT")
  end

  def asctime
    strftime("%a %b %e %H:%M:%S %Y")
  end
  alias ctime asctime
end

class DateTime
  def strftime(fmt = "%FT%T%:z")
    super(fmt)
  end

  def iso8601(n = 0)
    strftime("%Y-%m-%dT%H:%M:%S") + (n > 0 ? "." + __frac__(n) : "") + zone
  end
  alias xmlschema iso8601
  alias rfc3339 iso8601
end
