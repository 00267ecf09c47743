# Time.utc/gm/local/mktime's fields and Time.new(string), as CRuby: a field may be an Integer, a
# String of decimal digits or another Numeric (truncated; the seconds keep their fraction as
# microseconds, mnrb's precision), the month also a name ("jan", any case), and the ten-element
# form of Time#to_a; each field is checked with CRuby's messages ("mon out of range"). mruby's C
# methods took Integers only and dropped a Float's fraction ("no implicit conversion of String").
# Time.new("2024-01-02 03:04:05.25 +09:00") (CRuby 3.2+) reads that one format; a bare year
# ("2024") is the year, as before 3.2.
class Time
  class << self
    alias __mnrb_utc utc
    alias __mnrb_local local

    def utc(*args) = __mnrb_utc(*__mnrb_fields(args))
    def local(*args) = __mnrb_local(*__mnrb_fields(args))
    alias gm utc
    alias mktime local

    # [year, mon, mday, hour, min, sec, usec] from CRuby's 1-7 or 10 arguments
    def __mnrb_fields(args)
      n = args.size
      if n == 10
        args = [args[5], args[4], args[3], args[2], args[1], args[0]]
      elsif n < 1 || n > 7
        raise ArgumentError, "wrong number of arguments (given #{n}, expected 1..8)"
      end
      year = __mnrb_int(args[0])
      mon = args.size > 1 ? __mnrb_month(args[1]) : 1
      mday = __mnrb_field(args[2], 1, 1, 31, "argument out of range")
      hour = __mnrb_field(args[3], 0, 0, 24, "hour out of range")
      min = __mnrb_field(args[4], 0, 0, 59, "min out of range")
      sec, usec = __mnrb_seconds(args[5])
      usec += __mnrb_int(args[6]) if args.size > 6 && !args[6].nil?
      raise ArgumentError, "sec out of range" if sec > 60
      raise ArgumentError, "min out of range" if hour == 24 && min > 0
      raise ArgumentError, "sec out of range" if hour == 24 && sec > 0
      [year, mon, mday, hour, min, sec, usec]
    end

    def __mnrb_int(v)
      case v
      when Integer then v
      when String then Integer(v, 10)
      when Numeric then v.to_i
      when nil then raise TypeError, "can't convert nil into an exact number"
      else Integer(v)
      end
    end

    def __mnrb_field(v, default, lo, hi, message)
      return default if v.nil?
      i = __mnrb_int(v)
      raise ArgumentError, message if i < lo || i > hi
      i
    end

    def __mnrb_month(v)
      return 1 if v.nil?
      if v.is_a?(String) && v.size == 3
        i = %w[jan feb mar apr may jun jul aug sep oct nov dec].index(v.downcase)
        return i + 1 if i
      end
      __mnrb_field(v, 1, 1, 12, "mon out of range")
    end

    # [whole seconds, microseconds]
    def __mnrb_seconds(v)
      return [0, 0] if v.nil?
      return [__mnrb_field(v, 0, 0, 60, "sec out of range"), 0] if v.is_a?(Integer) || v.is_a?(String)
      raise ArgumentError, "sec out of range" if v < 0 || v >= 61
      whole = v.floor
      [whole, ((v - whole) * 1_000_000).floor]
    end

    # Time.new(string): [fields, zone or nil]
    def __mnrb_parse(str, kw_zone)
      s = str
      d = ->(i, len) { (s[i, len] || "").bytes.all? { |b| b >= 48 && b <= 57 } && s[i, len].size == len }
      i = 0
      i += 1 if s[0] == "-" || s[0] == "+"
      i += 1 while i < s.size && s[i] >= "0" && s[i] <= "9"
      raise ArgumentError, "can't parse: #{str.inspect}" if i == 0 || (i == 1 && !d.(0, 1))
      return [[s.to_i], kw_zone] if i == s.size                  # a year alone
      year = s[0, i].to_i
      fields = [year]
      [["-", "mon"], ["-", "mday"]].each do |sep, name|
        raise ArgumentError, "can't parse: #{str.inspect}" unless s[i] == sep
        raise ArgumentError, "two digits #{name} is expected after `#{sep}': #{s[i..]}" unless d.(i + 1, 2) && !d.(i + 3, 1)
        fields << s[i + 1, 2].to_i
        i += 3
      end
      raise ArgumentError, "no time information" if i == s.size
      raise ArgumentError, "can't parse: #{str.inspect}" unless s[i] == " " || s[i] == "T"
      i += 1
      [["", "hour"], [":", "min"], [":", "sec"]].each do |sep, name|
        raise ArgumentError, "missing sec part: #{s[i - 5, 5]}" if name == "sec" && s[i] != ":"
        raise ArgumentError, "can't parse: #{str.inspect}" unless s[i, sep.size] == sep
        i += sep.size
        raise ArgumentError, "two digits #{name} is expected#{sep.empty? ? "" : " after `#{sep}'"}: #{s[i - sep.size..]}" unless d.(i, 2) && !d.(i + 2, 1)
        fields << s[i, 2].to_i
        i += 2
      end
      if s[i] == "."
        j = i + 1
        j += 1 while j < s.size && s[j] >= "0" && s[j] <= "9"
        raise ArgumentError, "subsecond expected after dot: #{s[i, 1]}" if j == i + 1
        fields << (fields.pop + Rational(s[i + 1...j].to_i, 10**(j - i - 1)))
        i = j
      end
      i += 1 while s[i] == " "
      zone = i < s.size ? s[i..] : kw_zone
      __mnrb_fields(fields.dup)                                   # CRuby's range checks
      [fields, zone]
    end
  end
end
