# Time.utc/gm/local/mktime's fields and Time.new(string) as CRuby (mnrb-compat mrblib/time_args.rb):
# Strings of digits, month names, fractional seconds, the ten-element form, and CRuby's errors.

class TimeArgsTest < MnTest::Case
  def parts(t) = [t.year, t.month, t.day, t.hour, t.min, t.sec, t.usec]

  def message
    yield
    flunk "no error"
  rescue ArgumentError, TypeError => e
    e.message
  end

  def test_fields_as_strings_and_month_names
    assert_equal [2024, 2, 3, 0, 0, 0, 0], parts(Time.utc(2024, "feb", 3))
    assert_equal [2024, 12, 31, 0, 0, 0, 0], parts(Time.utc(2024, "Dec", 31))
    assert_equal [2024, 3, 4, 5, 6, 7, 0], parts(Time.utc("2024", "3", "4", "5", "6", "7"))
    assert_equal [2024, 8, 1, 0, 0, 0, 0], parts(Time.gm(2024, "08"))
  end

  def test_fractional_seconds_and_microseconds
    assert_equal 500000, Time.utc(2024, 1, 2, 3, 4, 5.5).usec
    assert_equal 500000, Time.gm(2024, 1, 2, 3, 4, 5.5r).usec
    assert_equal 999999, Time.local(2024, 12, 31, 23, 59, 59.999999).usec
    assert_equal 250, Time.utc(2024, 1, 2, 3, 4, 5, 250).usec
    assert_equal 250, Time.utc(2024, 1, 2, 3, 4, 5, "250").usec
  end

  def test_the_to_a_form
    t = Time.utc(2024, 1, 2, 3, 4, 5)
    assert_equal [2024, 1, 2, 3, 4, 5, 0], parts(Time.utc(*t.to_a))
    assert_equal [2024, 1, 2, 3, 4, 5, 0], parts(Time.utc(5, 4, 3, 2, 1, 2024, nil, nil, false, nil))
  end

  def test_ranges_and_errors
    assert_equal "mon out of range", message { Time.utc(2024, 13) }
    assert_equal "argument out of range", message { Time.utc(2024, 1, 32) }
    assert_equal "min out of range", message { Time.utc(2024, 1, 1, 24, 1) }
    assert_equal "sec out of range", message { Time.utc(2024, 1, 1, 24, 0, 1) }
    assert_equal 500000, Time.utc(2024, 1, 1, 24, 0, 0.5).usec
    assert_equal "hour out of range", message { Time.utc(2024, 1, 1, 25) }
    assert_equal "min out of range", message { Time.utc(2024, 1, 1, 0, 60) }
    assert_equal "sec out of range", message { Time.utc(2024, 1, 1, 0, 0, 61) }
    assert_equal 'invalid value for Integer(): "foo"', message { Time.utc(2024, "foo") }
    assert_equal 'invalid value for Integer(): "7.5"', message { Time.utc(2024, 1, 2, 3, 4, "7.5") }
    assert_equal [2024, 3, 1, 0, 0, 0, 0], parts(Time.utc(2024, 2, 30))       # rolls over, as CRuby
    assert_equal [2024, 1, 1, 0, 1, 0, 0], parts(Time.utc(2024, 1, 1, 0, 0, 60))
    assert_equal [2024, 1, 2, 0, 0, 0, 0], parts(Time.utc(2024, 1, 1, 24))
  end

  # CRuby 3.2+ (3.1 reads the string as a year)
  def test_new_from_a_string
    t = Time.new("2024-01-02 03:04:05.25 +09:00")
    assert_equal [2024, 1, 2, 3, 4, 5, 250000], parts(t)
    assert_equal 32400, t.utc_offset
    assert Time.new("2024-01-02T03:04:05Z").utc?
    assert Time.new("2024-01-02 03:04:05 UTC").utc?
    assert_equal 3600, Time.new("2024-01-02 03:04:05", in: "+01:00").utc_offset
    assert_equal [2024, 1, 1, 0, 0, 0, 0], parts(Time.new("2024"))
    assert_equal "no time information", message { Time.new("2024-01-02") }
    assert_equal "mon out of range", message { Time.new("2024-13-02 03:04:05") }
    assert_equal "missing sec part: 03:04", message { Time.new("2024-01-02 03:04") }
    assert_equal "can't parse: \" 2024-01-02 03:04:05\"", message { Time.new(" 2024-01-02 03:04:05") }
    assert_equal "two digits mon is expected after `-': -1-2 3:4:5", message { Time.new("2024-1-2 3:4:5") }
  end
end
