# Kernel#display, #putc, NilClass#=~, Kernel#caller_locations, Exception#backtrace_locations and
# Method#curry, with CRuby 3.1's results (this file passes there too).

class KernelDisplayTest < MnTest::Case
  def test_display_writes_to_s_and_returns_nil
    assert_equal "1", capture_stdout { assert_nil 1.display }
    out = []
    def out.write(s) = push(s)
    assert_nil :sym.display(out)
    assert_equal [:sym], out.map(&:to_sym)
  end

  def test_putc
    assert_equal "aA\u0041", capture_stdout {
      assert_equal "ab", putc("ab")
      assert_equal 65, putc(65)
      putc(321)
    }
    e = assert_raise(TypeError) { putc(nil) }
    assert_equal "no implicit conversion from nil to integer", e.message
  end

  def test_nil_match_is_nil
    assert_nil(nil =~ /x/)
    assert_nil(nil =~ "x")
  end

  def here_locations = caller_locations
  def here_locations0 = caller_locations(0, 1)

  def test_caller_locations
    locs = here_locations
    line = __LINE__ - 1
    loc = locs.first
    assert_kind_of Thread::Backtrace::Location, loc
    assert_equal __FILE__, loc.path
    assert_equal line, loc.lineno
    assert_equal "test_caller_locations", loc.base_label
    assert_equal "#{__FILE__}:#{line}:in", loc.to_s[0, "#{__FILE__}:#{line}:in".size]
    assert_equal loc.to_s.inspect, loc.inspect
    l0 = here_locations0
    assert_equal 1, l0.size
    assert_equal "here_locations0", l0[0].base_label
    assert_equal __LINE__, caller_locations(0)[0].lineno
  end

  def test_backtrace_locations
    e = begin
      raise "x"
    rescue => err
      err
    end
    line = __LINE__ - 4
    assert_equal line, e.backtrace_locations[0].lineno
    assert_equal __FILE__, e.backtrace_locations[0].path
    assert_nil RuntimeError.new("y").backtrace_locations
  end

  def add3(a, b, c) = a + b + c

  def test_method_curry
    c = method(:add3).curry
    assert_equal 6, c[1][2][3]
    assert_equal 6, c.(1, 2).(3)
  end
end
