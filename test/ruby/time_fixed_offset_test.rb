# Time with a fixed UTC offset, as CRuby's: Time.new's seventh argument and `in:`, Time.at(x, in:),
# Time.now(in:), #getlocal/#localtime with an offset, #utc_offset and #zone (nil), to_s/inspect
# ("+0900", microseconds in inspect), strftime's %z, arithmetic and rounding keep the offset,
# comparison and hashing by the instant, CRuby's ArgumentErrors for bad offsets, and the users of
# it: DateTime#to_time, Time.parse/iso8601, YAML timestamps with an offset, Marshal. Checked on
# CRuby 3.1 and 3.3.8.
require "date"
begin
  require "yaml"
rescue LoadError      # (a CRuby built without libyaml)
end

class TimeFixedOffsetTest < MnTest::Case
  BAD = '"+HH:MM", "-HH:MM", "UTC" or "A".."I","K".."Z" expected for utc_offset: '

  def test_new_with_an_offset
    t = Time.new(2024, 1, 2, 3, 4, 5, "+09:00")
    assert_equal [2024, 1, 2, 3, 4, 5], [t.year, t.month, t.day, t.hour, t.min, t.sec]
    assert_equal 32400, t.utc_offset
    assert_equal 32400, t.gmt_offset
    assert_nil t.zone
    assert_equal false, t.utc?
    assert_equal Time.gm(2024, 1, 1, 18, 4, 5).to_i, t.to_i
    assert_equal "2024-01-02 03:04:05 +0900", t.to_s
    assert_equal "2024-01-02 03:04:05 +0900", t.inspect
    assert_equal "2024-01-02 03:04:05 -0300", Time.new(2024, 1, 2, 3, 4, 5, in: "-03:00").to_s
    assert_equal "2024-01-02 03:04:05 +0530", Time.new(2024, 1, 2, 3, 4, 5, 19800).to_s
    assert_equal [5, 4, 3, 2, 1, 2024, 2, 2, false, nil], t.to_a
  end

  def test_utc_names_and_offset_forms
    assert Time.new(2024, 1, 2, 3, 4, 5, "UTC").utc?
    assert Time.at(0, in: "Z").utc?
    assert Time.at(0, in: "-00:00").utc?
    assert_equal "UTC", Time.at(0, in: "UTC").zone
    assert_equal false, Time.at(0, in: "+00:00").utc?
    assert_equal "1970-01-01 00:00:00 +0000", Time.at(0, in: "+00:00").to_s
    assert_equal "1970-01-01 09:00:00 +0900", Time.at(0, in: "+0900").to_s
    assert_equal "1970-01-01 09:00:00 +0900", Time.at(0, in: "+09").to_s
    assert_equal "1970-01-01 05:30:15 +0530", Time.at(0, in: "+05:30:15").to_s
    assert_equal "1970-01-01 05:30:15 +053015", Time.at(0, in: "+05:30:15").inspect
    assert_equal "1969-12-31 23:59:59 -0000", Time.at(0, in: "-00:00:01").to_s
    assert_equal "1969-12-31 23:59:59 -000001", Time.at(0, in: "-00:00:01").inspect
    assert_equal "-05:30:45", Time.at(0, in: "-05:30:45").strftime("%::z")
    assert_equal "1970-01-01 01:00:00 +0100", Time.at(0, in: "A").to_s
    assert_equal "1970-01-01 23:59:59 +235959", Time.at(0, in: 86399).inspect
  end

  def test_bad_offsets
    %w(+09:0 +9:00 09:00 abc +09:60 +0900:00 J).each do |z|
      e = assert_raise(ArgumentError) { Time.at(0, in: z) }
      assert_equal BAD + z, e.message
    end
    ["+24:00", "+99:00", 86400, -86400].each do |z|
      e = assert_raise(ArgumentError) { Time.at(0, in: z) }
      assert_equal "utc_offset out of range", e.message
    end
    e = assert_raise(ArgumentError) { Time.new(2024, 1, 2, 3, 4, 5, "+09:0") }
    assert_equal BAD + "+09:0", e.message
    e = assert_raise(ArgumentError) { Time.at(0).localtime("bad") }
    assert_equal BAD + "bad", e.message
  end

  def test_at_now_getlocal_localtime
    assert_equal "1969-12-31 19:00:00 -0500", Time.at(0, in: "-05:00").to_s
    assert_equal "1970-01-01 01:00:00 +0100", Time.at(0, in: 3600).to_s
    g = Time.at(0).getlocal("+05:30")
    assert_equal ["1970-01-01 05:30:00 +0530", 19800], [g.to_s, g.utc_offset]
    assert_equal 19800, Time.now.getlocal("+05:30").utc_offset
    assert_equal 32400, Time.now(in: "+09:00").utc_offset
    u = Time.at(0).utc
    assert_same u, u.localtime("+01:00")
    assert_equal "1970-01-01 01:00:00 +0100", u.to_s
    f = Time.at(0, in: "+09:00")
    assert_equal Time.at(0).utc_offset, f.getlocal.utc_offset
    assert_equal "1970-01-01 00:00:00 UTC", f.getutc.to_s
    assert_equal "1970-01-01 09:00:00 +0900", f.dup.to_s
    assert_equal "1970-01-01 09:00:00 +0900", f.to_s      # getutc left it as it was
  end

  def test_inspect_shows_the_fraction
    assert_equal "1970-01-01 09:00:01.5 +0900", Time.at(1.5, in: "+09:00").inspect
    assert_equal "1970-01-01 09:00:01.0005 +0900", Time.at(1, 500, :usec, in: "+09:00").inspect
    assert_equal "1970-01-01 09:00:01 +0900", Time.at(1.5, in: "+09:00").to_s
    assert_equal "1970-01-01 00:00:01.25 UTC", Time.at(1, 250, :millisecond).utc.inspect
    assert_equal [1, 999998], [Time.at(1, 1500, :nsec).usec, Time.at(1, -1500, :nsec).usec]
  end

  def test_strftime_offsets
    t = Time.new(2024, 1, 2, 3, 4, 5, "+09:00")
    assert_equal "+0900 +09:00 +09:00:00 |", t.strftime("%z %:z %::z %Z|")
    assert_equal "-0530 -05:30", Time.at(0, in: "-05:30").strftime("%z %:z")
  end

  def test_arithmetic_and_rounding_keep_the_offset
    t = Time.new(2024, 1, 2, 3, 4, 5, "+09:00")
    assert_equal "2024-01-02 04:04:05 +0900", (t + 3600).to_s
    assert_equal "2024-01-02 03:03:05 +0900", (t - 60).to_s
    assert_equal "2024-01-02 03:04:05.5 +0900", (t + 0.5).inspect
    assert_equal "2024-01-02 03:04:06 +0900", (t + 0.5).round.to_s
    assert_equal 65045.0, t - Time.gm(2024, 1, 1)
  end

  def test_comparison_and_hash_by_the_instant
    a = Time.new(2024, 1, 2, 3, 4, 5, "+09:00")
    b = Time.new(2024, 1, 1, 18, 4, 5, "UTC")
    assert_equal a, b
    assert a.eql?(b)
    assert_equal a.hash, b.hash
    assert_equal 1, a <=> Time.gm(2024)
    assert_equal({ a => 1 }, { b => 1 })
  end

  def test_datetime_to_time_keeps_the_offset
    t = DateTime.new(2024, 1, 2, 3, 4, 5, "+09:00").to_time
    assert_equal ["2024-01-02 03:04:05 +0900", 32400], [t.to_s, t.utc_offset]
    assert_equal "2024-01-02 03:04:05 -0500", DateTime.new(2024, 1, 2, 3, 4, 5, "-05:00").to_time.to_s
  end

  def test_time_parse_keeps_the_offset
    require "time"
    t = Time.parse("2024-01-02 03:04:05 +09:00")
    assert_equal ["2024-01-02 03:04:05 +0900", 32400], [t.to_s, t.utc_offset]
    assert_equal "2024-01-02 03:04:05 +0530", Time.iso8601("2024-01-02T03:04:05+05:30").to_s
    assert_equal "2024-01-02T03:04:05+05:30", Time.iso8601("2024-01-02T03:04:05+05:30").iso8601
  end

  def test_yaml_timestamp_keeps_the_offset
    skip "no YAML" unless defined?(YAML)
    t = YAML.unsafe_load("t: 2024-01-02 03:04:05.25 +05:30")["t"]
    assert_equal "2024-01-02 03:04:05.25 +0530", t.inspect
    assert_equal 19800, t.utc_offset
    assert_equal Time.utc(2024, 1, 1, 21, 34, 5, 250000), t
    assert YAML.unsafe_load("t: 2024-01-02 03:04:05 Z")["t"].utc?
  end

  def test_marshal_keeps_the_offset
    t = Time.at(0, in: "+09:00")
    s = Marshal.dump(t)
    assert_equal "\x04\bIu:\tTime\r \x80\x11\x80\x00\x00\x00\x00\a:\voffseti\x02\x90~:\tzone0".b, s.b
    u = Marshal.load(s)
    assert_equal ["1970-01-01 09:00:00 +0900", nil], [u.to_s, u.zone]
  end
end
