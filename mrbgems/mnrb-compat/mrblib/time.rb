# Time#strftime and #nsec, which mruby's Time lacks (scripts stamp their logs with strftime), and
# CRuby's zone arguments: Time.new's seventh argument and Time.new/at's `in:` name a zone (nil
# local, "UTC"/"Z", an offset "+09:00" or seconds, as Time#localtime takes them: patch 0178 gives
# mruby's Time fixed offsets, and Time.now(in:) in C: it stays a C call). strftime has CRuby's directives and flags: - (no padding), _
# (spaces), 0 (zeros), ^ (upper case), # (swap case), a width, and : / :: for %z. mruby keeps
# microseconds: %N's digits past the sixth are zeros.
class Time
  class << self
    alias __mnrb_at at

    # Time.at(time), Time.at(sec, subsec = 0, unit = :microsecond, in: zone)
    def at(sec, subsec = (no_subsec = true; 0), unit = :microsecond, **kw)
      zone = __mnrb_zone_kw(kw)
      if sec.is_a?(Time)
        raise TypeError, "can't convert Time into an exact number" unless no_subsec
        t = __mnrb_at(sec.to_i, sec.usec)
      else
        sec = sec.to_f if sec.is_a?(Numeric) && !sec.is_a?(Integer) && !sec.is_a?(Float)
        subsec = subsec.to_f if subsec.is_a?(Numeric) && !subsec.is_a?(Integer) && !subsec.is_a?(Float)
        usec = case unit
               when :microsecond, :usec then subsec
               when :millisecond then subsec * 1000
               when :nanosecond, :nsec then subsec.is_a?(Integer) ? subsec / 1000 : subsec / 1000.0
               else raise ArgumentError, "unexpected unit: #{unit.inspect}"
               end
        t = __mnrb_at(sec, usec)
      end
      zone.nil? ? t : t.localtime(zone)
    end

    def __mnrb_zone_kw(kw)
      return nil if kw.empty?
      extra = kw.keys - [:in]
      unless extra.empty?
        raise ArgumentError, "unknown keyword#{extra.size > 1 ? 's' : ''}: #{extra.map(&:inspect).join(', ')}"
      end
      kw[:in]
    end
  end

  alias __mnrb_initialize initialize
  private :__mnrb_initialize

  # Time.new, Time.new(year, mon = 1, mday = 1, hour = 0, min = 0, sec = 0, zone = nil, in: nil):
  # the fields are read in the zone given (a fixed offset, "UTC"), else in local time. A
  # fractional sec gives the microseconds.
  def initialize(*args, **kw)
    kw = kw.reject { |k, _| k == :precision } if kw.key?(:precision)
    zone = Time.__mnrb_zone_kw(kw)
    if args.size == 1 && args[0].is_a?(String)
      args, zone = Time.__mnrb_parse(args[0], zone)
    end
    raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0..7)" if args.size > 7
    if args.size == 7
      raise ArgumentError, "timezone argument given as positional and keyword arguments" if kw.key?(:in)
      zone = args.pop
    end
    if args.empty?
      __mnrb_initialize
      localtime(zone) unless zone.nil?
      return
    end
    frac = 0
    if args.size == 6 && !args[5].is_a?(Integer) && args[5].is_a?(Numeric)
      whole = args[5].floor
      frac = ((args[5] - whole) * 1_000_000).round
      args[5] = whole
    end
    if zone.nil?
      __mnrb_initialize(*args)
      initialize_copy(self.class.__mnrb_at(to_i, frac)) if frac != 0
      return
    end
    fields = self.class.gm(*args)                          # the fields, read as UTC
    off = fields.getlocal(zone).utc_offset                 # the zone's offset (fixed, or UTC's 0)
    initialize_copy(self.class.__mnrb_at(fields.to_i - off, frac).localtime(zone))
  end

  def nsec
    usec * 1000
  end

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

  # [ISO 8601 year, week number] (%G, %V): weeks start on Monday, week 1 holds the first Thursday
  def __iso_week
    wd = (wday + 6) % 7 + 1
    w = (yday - wd + 10) / 7
    y = year
    if w < 1
      y -= 1
      w = __iso_weeks_in(y)
    elsif w > __iso_weeks_in(y)
      y += 1
      w = 1
    end
    [y, w]
  end

  # 53 when the year starts or (a leap year) ends on a Thursday
  def __iso_weeks_in(y)
    dec31 = (y + y / 4 - y / 100 + y / 400) % 7
    prev = ((y - 1) + (y - 1) / 4 - (y - 1) / 100 + (y - 1) / 400) % 7
    dec31 == 4 || prev == 3 ? 53 : 52
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
    when "Y" then __strftime_pad(year, flags, width, year < 0 ? 5 : 4, "0")
    when "G" then y = __iso_week[0]; __strftime_pad(y, flags, width, y < 0 ? 5 : 4, "0")
    when "g" then __strftime_pad(__iso_week[0] % 100, flags, width, 2, "0")
    when "V" then __strftime_pad(__iso_week[1], flags, width, 2, "0")
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
      # CRuby's: a width pads the hours (zeros after the sign; with _ spaces before it, the
      # hours unpadded); - on a UTC time gives "-0000" (RFC 2822's unknown local offset)
      off = utc_offset
      sign = off < 0 || (flags.include?("-") && utc?) ? "-" : "+"
      off = off.abs
      h, m, s = off / 3600, off / 60 % 60, off % 60
      rest = case colons
             when 0 then format("%02d", m)
             when 1 then format(":%02d", m)
             else format(":%02d:%02d", m, s)
             end
      if flags.include?("_")
        hh = sign + h.to_s
        w = width || rest.size + 3
        " " * (w - rest.size - hh.size).clamp(0, w) + hh + rest
      else
        hw = width ? width - 1 - rest.size : 2
        sign + h.to_s.rjust(hw < 2 ? 2 : hw, "0") + rest
      end
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
    when "v" then __strftime_text(strftime("%e-%^b-%4Y"), flags, width)
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
