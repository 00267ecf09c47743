# Kernel#sleep (CRuby 3.1 docs): suspends the current thread for the given seconds (Integer or
# Float), or forever without an argument, and returns the rounded number of seconds slept. CRuby
# computes the result as the difference of two whole-second wall-clock readings, so the tests
# accept either neighbour of the exact value.

class SleepTest < MnTest::Case
  def elapsed
    t0 = MnTest.now
    r = yield
    [MnTest.now - t0, r]
  end

  def test_sleep_with_float_sleeps_at_least_that_long
    dt, _ = elapsed { sleep 0.05 }
    assert dt >= 0.05, "sleep(0.05) took only #{dt}"
  end

  def test_sleep_with_integer_sleeps_whole_seconds
    dt, r = elapsed { sleep 1 }
    assert dt >= 1.0, "sleep(1) took only #{dt}"
    assert_include [1, 2], r
  end

  def test_sleep_returns_an_integer
    assert_kind_of Integer, sleep(0.01)
  end

  def test_short_sleep_returns_zero_or_one
    assert_include [0, 1], sleep(0.01)
  end

  def test_sleep_zero_returns_promptly
    dt, r = elapsed { sleep 0 }
    assert dt < 1, "sleep(0) took #{dt}"
    assert_include [0, 1], r
  end

  def test_sleep_with_rational_is_accepted
    dt, _ = elapsed { sleep Rational(1, 50) }
    assert dt >= 0.02, "sleep(1/50r) took only #{dt}"
  end

  def test_negative_sleep_raises_argument_error
    e = assert_raise(ArgumentError) { sleep(-1) }
    assert_equal "time interval must not be negative", e.message
  end

  def test_negative_float_sleep_raises_argument_error
    e = assert_raise(ArgumentError) { sleep(-0.5) }
    assert_equal "time interval must not be negative", e.message
  end

  def test_string_sleep_raises_type_error
    e = assert_raise(TypeError) { sleep("1") }
    assert_equal "can't convert String into time interval", e.message
  end

  def test_nil_sleep_raises_type_error
    e = assert_raise(TypeError) { sleep(nil) }
    assert_equal "can't convert NilClass into time interval", e.message
  end

  def test_sleep_without_argument_sleeps_until_woken
    t = Thread.new { sleep; :woke }
    wait_until("thread sleeping") { t.status == "sleep" }
    assert_nil t.join(0.02), "sleep without argument returned by itself"
    t.wakeup
    assert_equal :woke, t.value
  end

  def test_sleep_without_argument_is_ended_by_run
    t = Thread.new { sleep }
    wait_until("thread sleeping") { t.status == "sleep" }
    t.run
    assert_kind_of Integer, t.value
  end

  def test_sleeping_thread_does_not_block_other_threads
    sleeper = Thread.new { sleep 0.5; :slept }
    worker = Thread.new { (1..1000).to_a.sum }
    assert_equal 500500, worker.value
    assert sleeper.alive?, "the worker only ran after the sleeper finished"
    sleeper.join
  end

  def test_sleeping_in_many_threads_overlaps
    dt, _ = elapsed { (1..20).map { Thread.new { sleep 0.2 } }.each(&:join) }
    assert dt >= 0.2
    assert dt < 1.5, "20 x sleep(0.2) took #{dt}: sleeps did not overlap"
  end

  def test_shorter_sleep_finishes_first
    order = Queue.new
    long = Thread.new { sleep 0.3; order << :long }
    short = Thread.new { sleep 0.05; order << :short }
    [long, short].each(&:join)
    assert_equal [:short, :long], [order.pop, order.pop]
  end
end
