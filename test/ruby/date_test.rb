# require "date" as CRuby's date library: Date and DateTime built from fields, arithmetic over
# days and months, the calendar fields (jd, yday, cwday, cweek...), comparison and hashing,
# strftime, parsing (parse, strptime, iso8601), conversions to and from Time, Marshal, and use in a
# non-main Ractor. Expected values were checked on CRuby 3.3.8 and 3.1.
require "date"

class DateTest < MnTest::Case
  def d(*args)
    Date.new(*args)
  end

  def test_new_and_fields
    x = d(2024, 1, 15)
    assert_equal [2024, 1, 15, 1, 15], [x.year, x.mon, x.mday, x.wday, x.yday]
    assert_equal [2460325, 60324, 1, 3, 2024], [x.jd, x.mjd, x.cwday, x.cweek, x.cwyear]
    assert_equal Rational(4920649, 2), x.ajd
    assert_equal "2024-01-15", x.to_s
    assert_equal "#<Date: 2024-01-15 ((2460325j,0s,0n),+0s,2299161j)>", x.inspect
    assert_equal "#<Date: -4712-01-01 ((0j,0s,0n),+0s,2299161j)>", Date.new.inspect
    assert_equal Date, Date.civil(2024, 1, 15).class
    assert_equal x, Date.civil(2024, 1, 15)
    assert x.monday?
    refute x.sunday?
  end

  def test_negative_day_and_month_count_from_the_end
    assert_equal "2024-12-31", d(2024, -1, -1).to_s
    assert_equal "2024-02-29", d(2024, 2, -1).to_s
    assert_equal "2023-02-28", d(2023, 2, -1).to_s
    assert_equal "2024-11-02", d(2024, -2, 2).to_s
  end

  def test_invalid_dates_raise_date_error
    [[2023, 2, 29], [2024, 13, 1], [2024, 4, 31], [2024, 0, 1], [2024, 1, 0], [2024, 1, 32],
     [1582, 10, 10]].each do |args|
      e = assert_raise(Date::Error) { Date.new(*args) }
      assert_equal "invalid date", e.message
    end
    assert_equal ArgumentError, Date::Error.superclass
    assert_raise(Date::Error) { DateTime.new(2024, 1, 1, 25) }
    refute Date.valid_date?(2023, 2, 29)
    assert Date.valid_date?(2024, 2, 29)
    assert Date.valid_civil?(2024, -1, -1)
  end

  def test_leap_years
    assert Date.leap?(2024)
    refute Date.leap?(1900)
    assert Date.leap?(2000)
    assert Date.gregorian_leap?(2000)
    assert Date.julian_leap?(1900)
    assert d(2024, 5, 5).leap?
    refute d(2023, 5, 5).leap?
  end

  def test_day_arithmetic
    x = d(2024, 1, 15)
    assert_equal "2024-02-14", (x + 30).to_s
    assert_equal "2023-12-16", (x - 30).to_s
    assert_equal "2024-01-16", x.next_day.to_s
    assert_equal "2024-01-12", x.prev_day(3).to_s
    assert_equal "2024-01-16", x.succ.to_s
    assert_equal Rational(29, 1), d(2024, 3, 1) - d(2024, 2, 1)
    assert_equal Rational, (d(2024, 3, 1) - d(2024, 2, 1)).class
    assert_equal 366, (d(2025, 1, 1) - d(2024, 1, 1)).to_i
    assert_equal Rational(-1, 1), d(2024, 1, 1) - d(2024, 1, 2)
  end

  def test_month_arithmetic_clamps_to_the_month_end
    assert_equal "2024-02-29", (d(2024, 1, 31) >> 1).to_s
    assert_equal "2023-02-28", (d(2023, 1, 31) >> 1).to_s
    assert_equal "2024-02-29", (d(2024, 3, 31) << 1).to_s
    assert_equal "2025-01-15", (d(2024, 1, 15) >> 12).to_s
    assert_equal "2023-11-30", (d(2024, 1, 31) << 2).to_s
    assert_equal "2024-02-15", d(2024, 1, 15).next_month.to_s
    assert_equal "2023-10-15", d(2024, 1, 15).prev_month(3).to_s
    assert_equal "2025-02-28", d(2024, 2, 29).next_year.to_s
    assert_equal "2020-02-29", d(2024, 2, 29).prev_year(4).to_s
  end

  def test_beginning_of_week_and_month
    x = d(2024, 1, 17)                     # a Wednesday
    assert_equal "2024-01-15", (x - (x.cwday - 1)).to_s
    assert_equal "2024-01-14", (x - x.wday).to_s
    assert_equal "2024-01-01", (x - (x.mday - 1)).to_s
    assert_equal "2024-01-31", Date.new(x.year, x.mon, -1).to_s
  end

  def test_commercial_and_ordinal
    assert_equal "2024-01-15", Date.commercial(2024, 3, 1).to_s
    assert_equal "2020-12-28", Date.commercial(2020, 53, 1).to_s
    assert_equal [2020, 53, 5], [d(2021, 1, 1).cwyear, d(2021, 1, 1).cweek, d(2021, 1, 1).cwday]
    assert_equal "2024-02-01", Date.ordinal(2024, 32).to_s
    assert_equal "2024-12-31", Date.ordinal(2024, -1).to_s
    assert_equal 366, d(2024, 12, 31).yday
    assert_equal "2024-01-15", Date.jd(2460325).to_s
  end

  def test_comparison_and_case_equality
    a = d(2024, 1, 15)
    b = d(2024, 1, 16)
    assert a < b
    assert_equal(-1, a <=> b)
    assert_equal 0, a <=> Date.new(2024, 1, 15)
    assert_nil(a <=> "x")
    assert a == Date.new(2024, 1, 15)
    refute a == "2024-01-15"
    assert a.between?(d(2024, 1, 1), d(2024, 2, 1))
    assert a === DateTime.new(2024, 1, 15, 23, 0, 0)
    refute a == DateTime.new(2024, 1, 15, 23, 0, 0)
    assert_equal [d(2024, 1, 1), d(2024, 1, 15), d(2024, 3, 1)], [d(2024, 3, 1), a, d(2024, 1, 1)].sort
    assert_equal d(2024, 3, 1), [d(2024, 3, 1), a].max
  end

  def test_usable_as_hash_keys
    h = { d(2024, 1, 15) => :a }
    assert_equal :a, h[Date.new(2024, 1, 15)]
    assert d(2024, 1, 15).eql?(Date.parse("2024-01-15"))
    assert_equal d(2024, 1, 15).hash, Date.parse("2024-01-15").hash
    assert_equal 2, [d(2024, 1, 1), d(2024, 1, 1), d(2024, 1, 2)].uniq.size
  end

  def test_step_upto_downto_and_ranges
    a = d(2024, 1, 30)
    assert_equal %w(2024-01-30 2024-01-31 2024-02-01), a.upto(d(2024, 2, 1)).map(&:to_s)
    assert_equal %w(2024-01-30 2024-01-29), a.downto(d(2024, 1, 29)).map(&:to_s)
    assert_equal [30, 6, 13], a.step(d(2024, 2, 14), 7).map(&:day)
    assert_equal [30, 23], a.step(d(2024, 1, 20), -7).map(&:day)
    r = d(2024, 1, 1)..d(2024, 1, 31)
    assert_equal 31, r.count
    assert_equal [1, 2, 3], (d(2024, 1, 1)..d(2024, 1, 3)).map(&:day)
    assert_equal 2, (d(2024, 1, 1)...d(2024, 1, 3)).to_a.size
    assert r.include?(d(2024, 1, 9))
    assert_equal [6, 13, 20, 27], r.select(&:saturday?).map(&:day)
  end

  def test_strftime
    x = d(2024, 1, 5)
    assert_equal "2024-01-05 Fri Friday Jan January 005", x.strftime("%Y-%m-%d %a %A %b %B %j")
    assert_equal " 5|5|24|20|5|5|00|01|2024|01", x.strftime("%e|%-d|%y|%C|%u|%w|%U|%W|%G|%V")
    assert_equal "FRIDAY|JAN|    Friday|00:00:00|12 AM", x.strftime("%^A|%^b|%10A|%T|%I %p")
    assert_equal "01/05/24|Fri Jan  5 00:00:00 2024|1704412800|+0000|+00:00|%", x.strftime("%D|%c|%s|%z|%:z|%%")
    assert_equal "2024-01-05", x.strftime
    assert_equal " 5-JAN-2024", x.strftime("%v")
    assert_equal "-0001-01-01", d(-1, 1, 1).to_s
    assert_equal "12345-06-07", d(12345, 6, 7).to_s
  end

  def test_parse_common_formats
    want = d(2024, 1, 15)
    ["2024-01-15", "Jan 15 2024", "15 Jan 2024", "January 15, 2024", "20240115", "2024/01/15",
     "15/01/2024", "Mon, 15 Jan 2024 10:00:00 +0000", "2024-01-15T10:05:03+09:00", "15.01.2024",
     "Monday, January 15th, 2024"].each do |s|
      assert_equal want, Date.parse(s), s
    end
    assert_equal d(2001, 2, 24), Date.parse("1/2/24")
    assert_equal d(1999, 3, 4), Date.parse("99-03-04")
    assert_equal d(2024, 1, 1), Date.parse("Jan 2024")
    assert_equal Date.today.year, Date.parse("Jan 15").year
    assert_equal({ year: 2024, mon: 1, mday: 15 }, Date._parse("2024-01-15"))
    assert_equal({ hour: 22, min: 5, year: 2024, mon: 1, mday: 15 },
                 Date._parse("15 January 2024 10:05pm"))
  end

  def test_parse_rejects_what_is_not_a_date
    ["foo", "", "2023-02-29", "01/15/2024", "10:05"].each do |s|
      e = assert_raise(Date::Error) { Date.parse(s) }
      assert_equal "invalid date", e.message
    end
    e = assert_raise(ArgumentError) { Date.parse("x" * 200) }
    assert_equal "string length (200) exceeds the limit 128", e.message
  end

  def test_strptime
    assert_equal d(2024, 1, 15), Date.strptime("15/01/2024", "%d/%m/%Y")
    assert_equal d(2024, 1, 15), Date.strptime("2024-01-15")
    assert_equal d(2024, 1, 15), Date.strptime("Jan 15 24", "%b %d %y")
    assert_equal d(2024, 2, 1), Date.strptime("2024-032", "%Y-%j")
    assert_equal d(2024, 1, 15), Date.strptime("2024 W03 1", "%G W%V %u")
    assert_equal({ year: 2024, mon: 1, mday: 15, leftover: "x" }, Date._strptime("2024-01-15x"))
    assert_nil Date._strptime("x", "%Y")
    ["2024-13-01", "32/01/2024", "x"].each do |s|
      assert_raise(Date::Error) { Date.strptime(s, "%d/%m/%Y") }
    end
    assert_equal d(2024, 1, 15), Date.strptime("15/01/2024 extra", "%d/%m/%Y")   # CRuby ignores the rest
    assert_raise(Date::Error) { Date.strptime("2023-02-29", "%Y-%m-%d") }
  end

  def test_iso8601_forms
    assert_equal d(2024, 1, 15), Date.iso8601("2024-01-15")
    assert_equal d(2024, 1, 15), Date.iso8601("20240115")
    assert_equal d(2024, 1, 15), Date.iso8601("2024-W03-1")
    assert_equal d(2024, 1, 15), Date.iso8601("2024-015")
    assert_equal "2024-01-15", d(2024, 1, 15).iso8601
    assert_raise(Date::Error) { Date.iso8601("15 Jan 2024") }
  end

  def test_julian_calendar_before_the_reform
    assert_equal "1582-10-04", (d(1582, 10, 15) - 1).to_s
    assert_equal 2086308, d(1000, 1, 1).jd
    assert_equal 2086303, d(1000, 1, 1, Date::GREGORIAN).jd
    assert d(1500, 1, 1).julian?
    assert d(1900, 2, 29, Date::JULIAN).julian?
    assert_equal "#<Date: 2024-01-01 ((2460311j,0s,0n),+0s,-Infj)>", d(2024, 1, 1, Date::GREGORIAN).inspect
    assert_equal "1752-09-14", (d(1752, 9, 2, Date::ENGLAND) + 1).to_s
  end

  def test_constants
    assert_equal "January", Date::MONTHNAMES[1]
    assert_nil Date::MONTHNAMES[0]
    assert_equal %w(Sun Mon Tue Wed Thu Fri Sat), Date::ABBR_DAYNAMES
    assert_equal "Dec", Date::ABBR_MONTHNAMES[12]
    assert_equal "Saturday", Date::DAYNAMES[6]
    assert Date::ABBR_DAYNAMES.frozen?
    assert_equal 2299161, Date::ITALY
  end

  def test_datetime_fields
    t = DateTime.new(2024, 1, 15, 10, 5, 3, "+09:00")
    assert_equal [10, 5, 3, Rational(3, 8), "+09:00"], [t.hour, t.min, t.sec, t.offset, t.zone]
    assert_equal "2024-01-15T10:05:03+09:00", t.to_s
    assert_equal "#<DateTime: 2024-01-15T10:05:03+09:00 ((2460325j,3903s,0n),+32400s,2299161j)>", t.inspect
    assert_equal "2024-01-15T01:05:03+00:00", t.new_offset(0).to_s
    assert_equal "2024-01-15T10:05:03.500+09:00", DateTime.new(2024, 1, 15, 10, 5, 3.5, "+09:00").iso8601(3)
    assert_equal Rational(1, 2), DateTime.new(2024, 1, 15, 10, 5, Rational(7, 2)).sec_fraction
    assert_equal "2024-01-15 10:05 AM +0900", t.strftime("%F %H:%M %p %z")
    assert_equal "2024-01-15", t.to_date.to_s
    assert_equal Date, t.to_date.class
    assert_equal "2024-01-15T23:59:59+00:00", DateTime.new(2024, 1, 15, -1, -1, -1).to_s
    assert_equal Rational(1, 2), DateTime.new(2024, 1, 16, 12) - DateTime.new(2024, 1, 16)
    assert_equal "2024-01-16T22:05:03+09:00", (t + 1.5).to_s
    assert t.kind_of?(Date)
  end

  def test_datetime_parse_and_now
    t = DateTime.parse("2024-01-15T10:05:03+09:00")
    assert_equal [2024, 1, 15, 10, 5, 3, 32400], [t.year, t.mon, t.day, t.hour, t.min, t.sec, (t.offset * 86400).to_i]
    assert_equal "2024-01-15T10:05:03+00:00", DateTime.iso8601("2024-01-15T10:05:03Z").to_s
    assert_equal "2024-01-15T22:05:00+00:00", DateTime.parse("15 January 2024 10:05pm").to_s
    assert_equal "2023-11-14T22:13:20+00:00", DateTime.strptime("1700000000", "%s").to_s
    assert_equal "2024-01-15T10:05:03+02:00", DateTime.strptime("15/01/2024 10:05:03 +0200", "%d/%m/%Y %H:%M:%S %z").to_s
    now = DateTime.now
    t0 = Time.now
    assert (now.to_time - t0).abs < 5
    assert_equal Date.today, DateTime.now.to_date
  end

  def test_time_conversions
    assert_equal Time.local(2024, 1, 15), d(2024, 1, 15).to_time
    assert_equal d(2024, 5, 6), Time.local(2024, 5, 6, 7, 8, 9).to_date
    assert_equal "2024-05-06T07:08:09+00:00", Time.utc(2024, 5, 6, 7, 8, 9).to_datetime.to_s
    t = DateTime.new(2024, 1, 15, 10, 5, 3, "+09:00").to_time
    assert_equal Time.utc(2024, 1, 15, 1, 5, 3), t
    assert_equal Date.today, Time.now.to_date
  end

  def test_marshal_round_trip_and_cruby_bytes
    x = d(2024, 1, 15)
    assert_equal x, Marshal.load(Marshal.dump(x))
    t = DateTime.new(2024, 1, 15, 10, 5, 3, "+09:00")
    assert_equal t.to_s, Marshal.load(Marshal.dump(t)).to_s
    # CRuby 3.3.8's Marshal.dump(Date.new(2024, 1, 15))
    bytes = "\x04\bU:\tDate[\vi\x00i\x03\xA5\x8A%i\x00i\x00i\x00f\f2299161".b
    assert_equal x, Marshal.load(bytes)
    assert_equal bytes, Marshal.dump(x).b
  end

  def test_in_a_ractor_created_after_the_require
    r = Ractor.new do
      x = Date.parse("Jan 31 2024") >> 1
      [x.to_s, Date::ABBR_DAYNAMES[x.wday], x.strftime("%F %a"), (x - Date.new(2024, 1, 1)).to_i,
       DateTime.parse("Mon, 15 Jan 2024 10:00:00 EST").to_s, Date.strptime("15/01/2024", "%d/%m/%Y").to_s,
       DateTime.iso8601("2024-01-15T10:05:03+09:00").hour, x.thursday?, Date.httpdate("Mon, 15 Jan 2024 10:00:00 GMT").day]
    end
    assert_equal ["2024-02-29", "Thu", "2024-02-29 Thu", 59, "2024-01-15T10:00:00-05:00", "2024-01-15", 10, true, 15], r.take
  end

  # CRuby 3.3 cannot require in a non-main Ractor; mnrb loads the feature into that ractor's heap.
  def test_required_in_a_non_main_ractor
    mnrb_only
    r = Ractor.new do
      require "date"
      x = Date.parse("Jan 31 2024") >> 1
      [x.to_s, (Date.new(2024, 2, 30) rescue $!.class.name), Date::ABBR_DAYNAMES[x.wday]]
    end
    assert_equal ["2024-02-29", "Date::Error", "Thu"], r.take
  end
end
