# CRuby core methods mruby 3.1 lacks or has differently, which scripts (and mnrb-tune) use:
# Time#strftime, #nsec and #utc_offset; File.basename's suffix; min_by/max_by comparing with <=>.
# Expected values are CRuby 3.1's.

class CoreCompatTest < MnTest::Case
  def test_strftime_directives
    t = Time.gm(2026, 3, 7, 14, 5, 9)
    assert_equal "2026-03-07 14:05:09 +0000 UTC", t.strftime("%Y-%m-%d %H:%M:%S %z %Z")
    assert_equal "Sat Saturday Mar March 066  7", t.strftime("%a %A %b %B %j %e")
    assert_equal "02  2 PM pm pm", t.strftime("%I %l %p %P %#p")
    assert_equal "26 20 1772892309", t.strftime("%y %C %s")
    assert_equal "2026-03-07 14:05:09 03/07/26 14:05 02:05:09 PM", t.strftime("%F %T %D %R %r")
    assert_equal "Sat Mar  7 14:05:09 2026", t.strftime("%c")
    assert_equal "6 6 09 09", t.strftime("%u %w %U %W")
    assert_equal "% \n\t", t.strftime("%% %n%t")
  end

  def test_strftime_flags_and_widths
    t = Time.gm(2026, 3, 7, 4, 5, 9)
    assert_equal "7 3  3 4", t.strftime("%-d %-m %_m %-H")
    assert_equal "SAT MARCH MAR", t.strftime("%^a %^B %#b")
    assert_equal "  Saturday|Saturday|02026|+00:00 +00:00:00", t.strftime("%10A|%-10A|%5Y|%:z %::z")
    assert_equal "%q and 100%", t.strftime("%q and 100%%")
    ["100%", "x %-", "x %5"].each do |f|
      e = assert_raise(ArgumentError) { t.strftime(f) }
      assert_equal "invalid format: #{f}", e.message
    end
  end

  def test_fractions_of_a_second
    t = Time.at(1_700_000_000, 123_456).utc
    assert_equal "22:13:20.123 123456000 123456", t.strftime("%H:%M:%S.%L %N %6N")
    assert_equal 123_456_000, t.nsec
    assert_equal 0, Time.gm(2026, 1, 1).utc_offset
  end

  def test_local_time_offset_matches_its_fields
    t = Time.now
    assert_equal t.to_i + t.utc_offset, Time.gm(t.year, t.month, t.day, t.hour, t.min, t.sec).to_i
    sign = t.utc_offset < 0 ? "-" : "+"
    assert_equal format("%s%02d%02d", sign, t.utc_offset.abs / 3600, t.utc_offset.abs / 60 % 60), t.strftime("%z")
  end

  def test_basename_with_a_suffix
    assert_equal "c", File.basename("/a/b/c.rb", ".rb")
    assert_equal "c", File.basename("c.rb", ".*")
    assert_equal ".bashrc", File.basename(".bashrc", ".*")
    assert_equal "x.rb", File.basename("x.rb", "x.rb")
    assert_equal "c.rb", File.basename("c.rb", ".py")
    assert_equal "b", File.basename("/a/b/")
  end

  def test_min_by_and_max_by_compare_with_the_spaceship
    assert_equal 3, [3, 1, 2].max_by { |x| [x % 2, x] }
    assert_equal 2, [3, 1, 2].min_by { |x| [x % 2, -x] }
    assert_equal "b", %w(aa b ccc).min_by(&:size)
    assert_equal %w(ccc aa), %w(aa b ccc).max_by(2, &:size)
    assert_equal %w(b aa), %w(aa b ccc).min_by(2, &:size)
    assert_equal [:b, 1], { a: 3, b: 1 }.min_by { |_, v| v }
    assert_equal nil, [].max_by { |x| x }
    assert_equal 1, [1, 1].max_by { |x| x }.then { |x| x }
    assert_raise(ArgumentError) { [1, "a"].max_by { |x| x } }
  end
end
