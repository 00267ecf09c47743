# Time#deconstruct_keys (CRuby 3.2, for `case t in {year:, month:}`) and Time#xmlschema / #iso8601
# (core since CRuby 3.4; `require "time"` defined them before).
class Time
  def deconstruct_keys(keys)
    unless keys.nil? || keys.is_a?(Array)
      what = keys == true ? "true" : keys == false ? "false" : keys.class.to_s
      raise TypeError, "wrong argument type #{what} (expected Array or nil)"
    end
    h = {}
    %i[year month day yday wday hour min sec subsec dst zone].each do |k|
      next if keys && !keys.include?(k)
      h[k] = k == :dst ? dst? : k == :zone ? zone : __send__(k)
    end
    h
  end

  # "2020-01-02T03:04:05Z", "...T03:04:05.250+09:00" with digits of the fraction
  def xmlschema(fraction_digits = 0)
    digits = fraction_digits.to_int
    s = strftime("%FT%T")
    s << strftime(".%#{digits}N") if digits > 0
    s << (utc? ? "Z" : strftime("%:z"))
  end

  def iso8601(fraction_digits = 0) = xmlschema(fraction_digits)
end
