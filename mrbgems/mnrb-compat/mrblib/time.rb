# Time#strftime, #nsec and #utc_offset, which mruby's Time lacks (scripts stamp their logs with
# strftime). CRuby's directives and flags: - (no padding), _ (spaces), 0 (zeros), ^ (upper case),
# # (swap case), a width, and : / :: for %z. mruby keeps microseconds: %N's digits past the sixth
# are zeros.
class Time
  def nsec
    usec * 1000
  end

  def utc_offset
    return 0 if utc?
    Time.gm(year, month, day, hour, min, sec).to_i - to_i
  end
  alias gmt_offset utc_offset
  alias gmtoff utc_offset

  def strftime(format)
    format = format.to_str unless format.is_a?(String)
    out = ""
    i = 0
    n = format.size
    while i < n
      c = format[i]
      if c != "%"
        out << c
        i += 1
        next
      end
      raise ArgumentError, "invalid format: #{format}" if i + 1 >= n
      j = i + 1
      flags = ""
      while j < n && "-_0^#".include?(format[j])
        flags << format[j]
        j += 1
      end
      width = nil
      while j < n && format[j] >= "0" && format[j] <= "9"
        width = (width || 0) * 10 + format[j].to_i
        j += 1
      end
      colons = 0
      while j < n && format[j] == ":"
        colons += 1
        j += 1
      end
      raise ArgumentError, "invalid format: #{format}" if j >= n
      text = __strftime_field(format[j], flags, width, colons)
      if text.nil?
        out << format[i..j]                      # not a directive: as written, as CRuby
      else
        out << text
      end
      i = j + 1
    end
    out
  end

  def __strftime_pad(v, flags, width, default_width, default_pad)
    s = v.to_s
    neg = s.start_with?("-")
    s = s[1..-1] if neg
    w = width || default_width
    pad = if flags.include?("-") then nil
          elsif flags.include?("_") then " "
          elsif flags.include?("0") then "0"
          else default_pad
          end
    w -= 1 if neg
    s = (pad * (w - s.size)) + s if pad && s.size < w
    neg ? "-" + s : s
  end

  def __strftime_text(s, flags, width)
    s = s.upcase if flags.include?("^")
    s = (s == s.upcase ? s.downcase : s.upcase) if flags.include?("#")
    return s if width.nil? || s.size >= width || flags.include?("-")
    (flags.include?("0") ? "0" : " ") * (width - s.size) + s
  end

  def __strftime_field(conv, flags, width, colons)
    case conv
    when "Y" then __strftime_pad(year, flags, width, 1, "0")
    when "C" then __strftime_pad(year / 100, flags, width, 2, "0")
    when "y" then __strftime_pad(year % 100, flags, width, 2, "0")
    when "m" then __strftime_pad(month, flags, width, 2, "0")
    when "d" then __strftime_pad(day, flags, width, 2, "0")
    when "e" then __strftime_pad(day, flags, width, 2, " ")
    when "j" then __strftime_pad(yday, flags, width, 3, "0")
    when "H" then __strftime_pad(hour, flags, width, 2, "0")
    when "k" then __strftime_pad(hour, flags, width, 2, " ")
    when "I" then __strftime_pad((hour % 12).zero? ? 12 : hour % 12, flags, width, 2, "0")
    when "l" then __strftime_pad((hour % 12).zero? ? 12 : hour % 12, flags, width, 2, " ")
    when "M" then __strftime_pad(min, flags, width, 2, "0")
    when "S" then __strftime_pad(sec, flags, width, 2, "0")
    when "L", "N"
      digits = width || (conv == "L" ? 3 : 9)
      frac = format("%06d", usec) + "0" * (digits > 6 ? digits - 6 : 0)
      frac[0, digits]
    when "s" then __strftime_pad(to_i, flags, width, 1, "0")
    when "z"
      off = utc_offset
      sign = off < 0 ? "-" : "+"
      off = off.abs
      h, m, s = off / 3600, off / 60 % 60, off % 60
      body = case colons
             when 0 then format("%02d%02d", h, m)
             when 1 then format("%02d:%02d", h, m)
             else format("%02d:%02d:%02d", h, m, s)
             end
      w = width ? width - 1 : body.size
      body = (flags.include?("_") ? " " : "0") * (w - body.size) + body if body.size < w
      sign + body
    when "Z" then __strftime_text(utc? ? "UTC" : zone.to_s, flags, width)
    when "A" then __strftime_text(%w(Sunday Monday Tuesday Wednesday Thursday Friday Saturday)[wday], flags, width)
    when "a" then __strftime_text(%w(Sun Mon Tue Wed Thu Fri Sat)[wday], flags, width)
    when "B"
      __strftime_text(%w(January February March April May June July August September October November December)[month - 1], flags, width)
    when "b", "h" then __strftime_text(%w(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec)[month - 1], flags, width)
    when "p" then __strftime_text(flags.include?("#") ? (hour < 12 ? "am" : "pm") : (hour < 12 ? "AM" : "PM"), flags.delete("#"), width)
    when "P" then __strftime_text(hour < 12 ? "am" : "pm", flags, width)
    when "u" then __strftime_pad(wday.zero? ? 7 : wday, flags, width, 1, "0")
    when "w" then __strftime_pad(wday, flags, width, 1, "0")
    when "U" then __strftime_pad((yday - 1 + 7 - wday) / 7, flags, width, 2, "0")
    when "W" then __strftime_pad((yday - 1 + 7 - (wday + 6) % 7) / 7, flags, width, 2, "0")
    when "F" then __strftime_text(strftime("%Y-%m-%d"), flags, width)
    when "D", "x" then __strftime_text(strftime("%m/%d/%y"), flags, width)
    when "T", "X" then __strftime_text(strftime("%H:%M:%S"), flags, width)
    when "R" then __strftime_text(strftime("%H:%M"), flags, width)
    when "r" then __strftime_text(strftime("%I:%M:%S %p"), flags, width)
    when "c" then __strftime_text(strftime("%a %b %e %H:%M:%S %Y"), flags, width)
    when "n" then "\n"
    when "t" then "\t"
    when "%" then "%"
    end
  end
end
