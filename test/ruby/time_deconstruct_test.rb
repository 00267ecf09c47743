# Time#deconstruct_keys (3.2) and Time#xmlschema / #iso8601 (core in 3.4; `require "time"` before).
# Checked on CRuby 3.3.8 and 3.1 with `require "time"` for xmlschema; deconstruct_keys on 3.3.8.
require "time"

class TimeDeconstructTest < MnTest::Case
  def t = Time.utc(2020, 1, 2, 3, 4, 5.25r)

  def test_all_keys
    return assert(RUBY_VERSION < "3.2") unless t.respond_to?(:deconstruct_keys)
    assert_equal({ year: 2020, month: 1, day: 2, yday: 2, wday: 4, hour: 3, min: 4, sec: 5,
                   subsec: 1/4r, dst: false, zone: "UTC" }, t.deconstruct_keys(nil))
  end

  def test_some_keys_unknown_ignored
    return assert(RUBY_VERSION < "3.2") unless t.respond_to?(:deconstruct_keys)
    assert_equal({ year: 2020, zone: "UTC" }, t.deconstruct_keys([:year, :zone, :foo, "sec"]))
    assert_equal({ zone: nil, dst: false }, Time.new(2020, 1, 2, 3, 4, 5, "+09:00").deconstruct_keys([:zone, :dst]))
  end

  def test_bad_keys
    return assert(RUBY_VERSION < "3.2") unless t.respond_to?(:deconstruct_keys)
    e = assert_raise(TypeError) { t.deconstruct_keys(1) }
    assert_equal "wrong argument type Integer (expected Array or nil)", e.message
  end

  def test_pattern_matching
    return assert(RUBY_VERSION < "3.2") unless t.respond_to?(:deconstruct_keys)
    r = case t
        in { year: 2020, month: m } then m
        end
    assert_equal 1, r
  end

  def test_xmlschema
    assert_equal "2020-01-02T03:04:05Z", t.xmlschema
    assert_equal "2020-01-02T03:04:05.250Z", t.iso8601(3)
    assert_equal "2020-01-02T03:04:05+09:00", Time.new(2020, 1, 2, 3, 4, 5, "+09:00").xmlschema
    assert_equal "2020-01-02T03:04:05.5-01:30", Time.new(2020, 1, 2, 3, 4, 5.5r, "-01:30").xmlschema(1)
  end
end
