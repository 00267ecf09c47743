# Time#zone is the zone's abbreviation, as CRuby's (mruby patch 0205: mruby gave the offset,
# "+0900"), and strftime("%Z") with it; ENV["TZ"] = takes effect at once (mnrb-compat's env.c calls
# tzset). POSIX TZ strings need no zone files. Checked on CRuby 3.1 and 3.3.8.
class TimeZoneNameTest < MnTest::Case
  def with_tz(tz)
    saved = ENV["TZ"]
    ENV["TZ"] = tz
    yield
  ensure
    ENV["TZ"] = saved
  end

  def test_utc
    t = Time.utc(2020, 1, 2, 3, 4, 5)
    assert_equal ["UTC", "2020-01-02 03:04:05 UTC", "UTC +0000"], [t.zone, t.inspect, t.strftime("%Z %z")]
  end

  def test_local_zone_names
    with_tz("XYZ-9") do
      t = Time.at(0)
      assert_equal [9, 32400, "XYZ"], [t.hour, t.utc_offset, t.zone]
      assert_equal "1970-01-01 09:00:00 +0900", t.to_s
      assert_equal "XYZ +0900", t.strftime("%Z %z")
      assert_equal "XYZ", Time.utc(2020, 1, 2).localtime.zone
    end
    with_tz("UTC0") do
      assert_equal [0, "UTC"], [Time.at(0).hour, Time.at(0).zone]
    end
  end

  def test_daylight_saving_names
    with_tz("EST5EDT,M3.2.0,M11.1.0") do
      assert_equal "EST", Time.local(2021, 1, 15).zone
      assert_equal "EDT", Time.local(2021, 7, 15).zone
    end
  end

  def test_fixed_offset_has_no_name
    assert_nil Time.at(0).localtime("+09:00").zone
    assert_nil Time.new(2000, 1, 1, 0, 0, 0, "+03:00").zone
  end
end
