# Regexp.timeout, Regexp.timeout= and Regexp.new(..., timeout:) (CRuby 3.2+; not in 3.1, so these
# tests skip there): a match running past the timeout raises Regexp::TimeoutError ("regexp match
# timeout"), a RegexpError. mnrb measures time between budgets of backtracking steps, so a match
# that times out raises between the timeout and about twice it (mnrb-regexp/src/timeout.c).

class RegexpTimeoutTest < MnTest::Case
  CATASTROPHIC = "^(a*)*$"
  SUBJECT = "a" * 50_000 + "x"    # exponential backtracking: never finishes untimed

  def setup
    skip "Regexp timeouts are CRuby 3.2+" unless Regexp.respond_to?(:timeout=)
    @saved = Regexp.timeout
  end

  def teardown
    Regexp.timeout = @saved if Regexp.respond_to?(:timeout=)
  end

  def elapsed
    t = MnTest.now
    yield
    MnTest.now - t
  end

  def test_no_timeout_by_default
    assert_nil Regexp.timeout
    assert_nil Regexp.new("a").timeout
    assert_nil(/a/.timeout)
  end

  def test_the_global_timeout_is_a_float
    Regexp.timeout = 3
    assert_equal 3.0, Regexp.timeout
    assert_kind_of Float, Regexp.timeout
    Regexp.timeout = 0.25
    assert_equal 0.25, Regexp.timeout
    Regexp.timeout = nil
    assert_nil Regexp.timeout
  end

  def test_a_bad_global_timeout_is_refused
    e = assert_raise(ArgumentError) { Regexp.timeout = -1 }
    assert_equal "invalid timeout: -1", e.message
    assert_raise(ArgumentError) { Regexp.timeout = 0 }
    assert_raise(TypeError) { Regexp.timeout = "1" }
    assert_nil Regexp.timeout
  end

  def test_timeout_error_is_a_regexp_error
    assert_equal RegexpError, Regexp::TimeoutError.superclass
  end

  def test_the_global_timeout_stops_a_catastrophic_match
    Regexp.timeout = 0.1
    re = Regexp.new(CATASTROPHIC)
    e = nil
    t = elapsed { e = assert_raise(Regexp::TimeoutError) { re =~ SUBJECT } }
    assert_equal "regexp match timeout", e.message
    assert t >= 0.1, "raised after #{t} s"
    assert t < 2.0, "raised after #{t} s"
  end

  def test_a_literal_obeys_the_global_timeout
    Regexp.timeout = 0.05
    assert_raise(Regexp::TimeoutError) { /^(a*)*$/.match?(SUBJECT) }
  end

  def test_a_per_regexp_timeout_overrides_the_global_one
    Regexp.timeout = 30
    re = Regexp.new(CATASTROPHIC, timeout: 0.05)
    assert_equal 0.05, re.timeout
    t = elapsed { assert_raise(Regexp::TimeoutError) { re.match(SUBJECT) } }
    assert t < 2.0, "raised after #{t} s (the global 30 s would be far longer)"
  end

  def test_a_match_within_the_timeout_succeeds
    re = Regexp.new("(\\d+)ms", timeout: 1)
    assert_equal "42", re.match("took 42ms")[1]
    assert_equal ["1", "2"], "1ms 2ms".scan(re).flatten
    Regexp.timeout = 1
    assert_equal "b", "abc".gsub(/[ac]/, "")
  end

  def test_scan_and_gsub_time_out_too
    re = Regexp.new(CATASTROPHIC, timeout: 0.05)
    assert_raise(Regexp::TimeoutError) { SUBJECT.scan(re) }
    assert_raise(Regexp::TimeoutError) { SUBJECT.gsub(re, "") }
  end

  def test_new_with_a_bad_timeout_is_refused
    assert_raise(ArgumentError) { Regexp.new("a", timeout: 0) }
    assert_raise(ArgumentError) { Regexp.new("a", timeout: -0.5) }
    assert_raise(ArgumentError) { Regexp.new("a", nil, bogus: 1) }
  end

  def test_dup_keeps_the_timeout
    re = Regexp.new("a", timeout: 0.5)
    assert_equal 0.5, re.dup.timeout
  end

  def test_a_timed_out_match_leaves_the_thread_usable
    re = Regexp.new(CATASTROPHIC, timeout: 0.02)
    assert_raise(Regexp::TimeoutError) { re =~ SUBJECT }
    assert_equal 0, re =~ "aaa"
    assert_equal 1, Thread.new { re =~ "aa" ? 1 : 0 }.value
  end
end
