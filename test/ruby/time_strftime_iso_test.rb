# Time#strftime's ISO 8601 week-based year and week (%G, %g, %V) across year ends, %Y padded to
# four digits, %v, %u/%C, %N's widths, flags (-, _, ^, #, a width) and %z's padding rules (a width
# pads the hours; _ puts spaces before the sign). Expected values from CRuby 3.1 and 3.3.8.

class TimeStrftimeIsoTest < MnTest::Case
  def test_iso_week_year_and_number
    {
      [2024, 1, 1] => "2024 24 01 1", [2021, 1, 3] => "2020 20 53 7", [2020, 12, 31] => "2020 20 53 4",
      [2026, 12, 31] => "2026 26 53 4", [2027, 1, 1] => "2026 26 53 5", [2005, 1, 2] => "2004 04 53 7",
      [2008, 12, 29] => "2009 09 01 1", [999, 5, 6] => "0999 99 19 1", [10, 1, 1] => "0009 09 53 5",
    }.each do |(y, m, d), want|
      assert_equal want, Time.utc(y, m, d).strftime("%G %g %V %u"), [y, m, d].inspect
    end
  end

  def test_year_and_century_padding
    t = Time.utc(999, 5, 6)
    assert_equal "0999|00999|09|999| 999", t.strftime("%Y|%5Y|%C|%-Y|%_Y")
    assert_equal "0010|00|10", Time.utc(10, 1, 1).strftime("%Y|%C|%y")
    assert_equal " 1-JAN-2024", Time.utc(2024, 1, 1).strftime("%v")
  end

  def test_fractions_and_flags
    t = Time.utc(2024, 1, 1, 3, 4, 5, 123456)
    assert_equal "123|123456|123456000|123456000|123|1|123456000000",
                 t.strftime("%3N|%6N|%9N|%N|%L|%1N|%12N")
    assert_equal "1234560000|123456000|123", t.strftime("%10N|%-N|%_3N")
    assert_equal "1|MON|    Monday|Monday|JANUARY|JAN|    1|00001|1|01",
                 t.strftime("%-d|%^a|%10A|%-10A|%^B|%#b|%_5d|%05e|%-m|%0e")
    assert_equal "MON JAN  1 03:04:05 2024|MONDAY|UTC|24| 1|005|1|AM|utc",
                 t.strftime("%^c|%#A|%^Z|%-y|%_m|%3S|%-j|%^P|%#Z")
  end

  def test_offset_padding
    o = Time.at(0).getlocal(34200)     # +09:30
    n = Time.at(0).getlocal(-18000)    # -05:00
    assert_equal " +930|      +930|+0930|+000000930| +9:30|+009:30:00|+09:30",
                 o.strftime("%_z|%_10z|%-z|%010z|%_:z|%10::z|%-:z")
    assert_equal " -500|   -500|-0500", n.strftime("%_z|%_7z|%-z")
    assert_equal " +000|      +000|-0000|+0000", Time.utc(2024, 1, 1).strftime("%_z|%_10z|%-z|%z")
  end
end
