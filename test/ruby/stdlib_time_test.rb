# require "time" as CRuby's: Time.parse on the common textual forms (ISO 8601, RFC 2822, ctime,
# month names, am/pm, zones by offset or name), filling what is missing from `now`; Time.strptime
# with the usual directives; Time.iso8601/xmlschema, rfc2822, httpdate and their formatters; and
# CRuby's ArgumentError messages. Checks compare instants (to_i, usec, utc?) so that they hold in
# any TZ; mnrb's Time has no fixed-offset form yet, so utc_offset is checked only where
# Time#getlocal(offset) works (CRuby). Expected values are CRuby 3.1's; strptime's message has
# CRuby 3.4's quotes ('x' where 3.1 has `x').
require "time"

class StdlibTimeTest < MnTest::Case
  NOW = Time.utc(2020, 6, 15, 10, 20, 30)
  FIXED = (Time.at(0).getlocal(3600).utc_offset == 3600 rescue false)

  def utc(*a) = Time.utc(*a)
  def local(*a) = Time.local(*a)

  def assert_instant(exp, t, utc = exp.utc?)
    assert_equal [exp.to_i, exp.usec], [t.to_i, t.usec], t.inspect
    assert_equal utc, t.utc?, "utc? of #{t.inspect}"
  end

  def assert_arg_error(msg)
    e = assert_raise(ArgumentError) { yield }
    assert_equal msg, e.message.tr("`", "'")
  end

  def test_parse_iso8601_forms
    assert_instant local(2024, 1, 2), Time.parse("2024-01-02", NOW)
    assert_instant local(2024, 1, 2, 3, 4, 5), Time.parse("2024-01-02T03:04:05", NOW)
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.parse("2024-01-02T03:04:05Z", NOW)
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.parse("20240102T030405Z", NOW)
    assert_instant local(2024, 1, 2, 3, 4, 5, 500000), Time.parse("2024-01-02T03:04:05.5", NOW)
    assert_instant local(2024, 1, 2, 3, 4), Time.parse("2024/01/02 03:04", NOW)
    assert_instant local(1999, 1, 2), Time.parse("99-01-02", NOW)
    assert_instant local(2024, 1, 2), Time.parse("20240102", NOW)
  end

  def test_parse_with_offsets
    t = Time.parse("2024-01-02T03:04:05.123+09:00", NOW)
    assert_instant utc(2024, 1, 1, 18, 4, 5, 123000), t, false
    assert_equal 32400, t.utc_offset if FIXED
    assert_instant utc(2024, 1, 2, 8, 34, 5), Time.parse("2024-01-02 03:04:05 -05:30", NOW), false
    assert_instant utc(2024, 1, 1, 18, 4, 5), Time.parse("2024-01-02T03:04:05+0900", NOW), false
    assert_instant utc(2024, 1, 2, 8, 4, 5), Time.parse("2024-01-02 03:04:05 EST", NOW), false
    assert_instant utc(2024, 1, 2, 11, 4, 5), Time.parse("2024-01-02 03:04:05 PST", NOW), false
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.parse("2024-01-02 03:04:05 UTC", NOW)
    assert_instant utc(1970, 1, 1), Time.parse("Thu, 01 Jan 1970 00:00:00 -0000", NOW)
  end

  def test_parse_rfc2822_and_ctime
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.parse("Tue, 02 Jan 2024 03:04:05 +0000", NOW), false
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.parse("02 Jan 2024 03:04:05 GMT", NOW), false
    assert_instant local(2024, 1, 2, 3, 4, 5), Time.parse("Tue Jan  2 03:04:05 2024", NOW)
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.parse("Tue Jan  2 03:04:05 UTC 2024", NOW)
  end

  def test_parse_month_names_and_am_pm
    assert_instant local(2024, 1, 2), Time.parse("Jan 2 2024", NOW)
    assert_instant local(2024, 1, 2), Time.parse("2 Jan 2024", NOW)
    assert_instant local(2024, 1, 2, 15, 4), Time.parse("January 2, 2024 3:04 PM", NOW)
    assert_instant local(2024, 1, 1), Time.parse("Jan 2024", NOW)
    assert_instant local(2024, 2, 1), Time.parse("01/02/2024", NOW)
    assert_instant local(2020, 12, 25), Time.parse("12/25", NOW)
    assert_instant local(2024, 1, 2), Time.parse("2024.01.02", NOW)
    assert_instant local(2024, 1, 2, 3, 4, 5), Time.parse("2024-1-2 3:4:5", NOW)
  end

  def test_parse_reads_a_zone_only_right_after_the_time
    assert_instant local(2023, 12, 31, 23, 59, 59), Time.parse("Dec 31 23:59:59 2023 UTC", NOW)
    assert_instant local(2024, 1, 2), Time.parse("2024-01-02 -0500", NOW)
  end

  def test_parse_fills_higher_fields_from_now
    assert_instant local(2020, 6, 15, 12, 30), Time.parse("12:30", NOW)
    assert_instant local(2020, 6, 15, 12, 30, 45), Time.parse("12:30:45", NOW)
    assert_instant local(2020, 1, 5), Time.parse("Jan 5", NOW)
    assert_instant local(2020, 6, 15, 15), Time.parse("3pm", NOW)
    assert_instant local(2020, 6, 15, 10, 20), Time.parse("10:20 am", NOW)
    assert_equal Time.now.year, Time.parse("Mar 3").year
  end

  def test_parse_rolls_day_over_like_crubys
    assert_instant local(2024, 3, 1), Time.parse("2024-02-30", NOW)
  end

  def test_parse_errors
    assert_arg_error("no time information in \"hello\"") { Time.parse("hello") }
    assert_arg_error("no time information in \"\"") { Time.parse("") }
    assert_arg_error("no time information in \"Saturday\"") { Time.parse("Saturday") }
    assert_arg_error("mon out of range") { Time.parse("2024-13-01") }
    assert_arg_error("argument out of range") { Time.parse("2024-01-32") }
    assert_arg_error("hour out of range") { Time.parse("2024-01-02 25:00") }
  end

  def test_strptime
    assert_instant local(2024, 1, 2, 3, 4, 5), Time.strptime("2024-01-02 03:04:05", "%Y-%m-%d %H:%M:%S")
    assert_instant local(2024, 1, 2), Time.strptime("02/01/24", "%d/%m/%y")
    assert_instant local(2024, 1, 2), Time.strptime("Tue Jan 2 2024", "%a %b %d %Y")
    assert_instant local(2024, 1, 2), Time.strptime("January 02 2024", "%B %d %Y")
    assert_instant local(2020, 6, 15, 15, 4), Time.strptime("3:04 PM", "%I:%M %p", NOW)
    assert_instant utc(2024, 1, 1, 18, 4, 5), Time.strptime("2024-01-02T03:04:05+09:00", "%FT%T%z"), false
    assert_instant Time.at(1700000000), Time.strptime("1700000000", "%s")
    assert_instant local(2024, 1, 2), Time.strptime("2024-002", "%Y-%j")
    assert_instant local(2024, 1, 2, 3, 4, 5, 123000), Time.strptime("2024-01-02 03:04:05.123", "%Y-%m-%d %H:%M:%S.%L")
    assert_instant utc(2024, 1, 2), Time.strptime("2024-01-02 UTC", "%Y-%m-%d %Z")
    assert_instant local(2024, 1, 2), Time.strptime("2024-01-02 junk", "%Y-%m-%d")
    assert_instant local(2024, 1, 1), Time.strptime("2024", "%Y")
  end

  def test_strptime_more_forms
    assert_instant utc(2000, 10, 10, 20, 55, 36), Time.strptime("10/Oct/2000:13:55:36 -0700", "%d/%b/%Y:%H:%M:%S %z"), false
    assert_instant Time.at(1700000000, 500000), Time.strptime("1700000000.5", "%s.%L")
    assert_instant local(2024, 12, 31), Time.strptime("2024-366", "%Y-%j")
    assert_instant local(2020, 6, 15, 0), Time.strptime("12 am", "%I %p", NOW)
  end

  def test_strptime_errors
    assert_arg_error("no time information in \"monday\"") { Time.strptime("monday", "%A") }
    assert_arg_error("no time information in \"\"") { Time.strptime("", "") }
    assert_arg_error("invalid date or strptime format - 'x2024' '%Y'") { Time.strptime("x2024", "%Y") }
    assert_arg_error("invalid date or strptime format - '13/2024' '%m/%Y'") { Time.strptime("13/2024", "%m/%Y") }
  end

  def test_iso8601_parser
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.iso8601("2024-01-02T03:04:05Z")
    assert_instant utc(2024, 1, 1, 18, 4, 5, 250000), Time.xmlschema("2024-01-02T03:04:05.25+09:00"), false
    assert_instant utc(2024, 1, 2, 8, 4, 5), Time.iso8601("2024-01-02T03:04:05-0500"), false
    assert_instant local(2024, 1, 2, 3, 4, 5), Time.iso8601("2024-01-02T03:04:05")
    ["2024-01-02 03:04:05Z", "junk", "2024-01-02T03:04Z"].each do |bad|
      assert_arg_error("invalid xmlschema format: #{bad.inspect}") { Time.iso8601(bad) }
    end
  end

  def test_rfc2822_and_httpdate_parsers
    assert_instant utc(2024, 1, 1, 18, 4, 5), Time.rfc2822("Tue, 02 Jan 2024 03:04:05 +0900"), false
    assert_instant utc(2024, 1, 2, 8, 4), Time.rfc2822("Tue, 2 Jan 24 03:04 EST"), false
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.rfc822("Tue, 02 Jan 2024 03:04:05 -0000")
    assert_arg_error("not RFC 2822 compliant date: \"junk\"") { Time.rfc2822("junk") }
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.httpdate("Tue, 02 Jan 2024 03:04:05 GMT")
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.httpdate("Tuesday, 02-Jan-24 03:04:05 GMT")
    assert_instant utc(2024, 1, 2, 3, 4, 5), Time.httpdate("Tue Jan  2 03:04:05 2024")
    assert_arg_error("not RFC 2616 compliant date: \"junk\"") { Time.httpdate("junk") }
  end

  def test_formatters_of_a_utc_time
    t = utc(2024, 1, 2, 3, 4, 5, 123456)
    assert_equal "2024-01-02T03:04:05Z", t.iso8601
    assert_equal "2024-01-02T03:04:05.123Z", t.xmlschema(3)
    assert_equal "2024-01-02T03:04:05.123456000Z", t.iso8601(9)
    assert_equal "Tue, 02 Jan 2024 03:04:05 -0000", t.rfc2822
    assert_equal "Tue, 02 Jan 2024 03:04:05 -0000", t.rfc822
    assert_equal "Tue, 02 Jan 2024 03:04:05 GMT", t.httpdate
  end

  def test_formatters_of_a_local_time
    t = Time.at(1704164645, 120000)   # 2024-01-02 03:04:05.12 UTC
    off = t.utc_offset
    sign = off < 0 ? "-" : "+"
    zone = format("%s%02d:%02d", sign, off.abs / 3600, off.abs % 3600 / 60)
    assert_equal t.strftime("%Y-%m-%dT%H:%M:%S.12") + zone, t.xmlschema(2)
    assert_equal t.strftime("%a, %d %b %Y %H:%M:%S ") + zone.delete(":"), t.rfc2822
    assert_equal "Tue, 02 Jan 2024 03:04:05 GMT", t.httpdate
    assert_instant t, Time.iso8601(t.iso8601(6)), false
  end

  def test_zone_offset
    assert_equal(-18000, Time.zone_offset("EST"))
    assert_equal 32400, Time.zone_offset("+09:00")
    assert_equal(-5400, Time.zone_offset("-0130"))
    assert_equal 0, Time.zone_offset("Z")
    assert_equal 0, Time.zone_offset("utc")
    assert_nil Time.zone_offset("QQQ")
  end
end
