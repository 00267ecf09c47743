# Thread::ConditionVariable (CRuby 3.1 ConditionVariable docs).

class ConditionVariableTest < MnTest::Case
  def setup
    @m = Mutex.new
    @cv = ConditionVariable.new
  end

  # Starts n threads that each wait on @cv once; returns [threads, woken-count reader].
  # A waiter counts as waiting once it has bumped `ready` under the mutex, because the
  # only way for anyone else to take the mutex after that is cv.wait releasing it.
  def start_waiters(n)
    state = { ready: 0, woken: 0 }
    threads = (1..n).map do
      Thread.new do
        @m.synchronize do
          state[:ready] += 1
          @cv.wait(@m)
          state[:woken] += 1
        end
      end
    end
    wait_until("#{n} waiters") { @m.synchronize { state[:ready] } == n }
    [threads, state]
  end

  def test_condition_variable_is_thread_condition_variable
    assert_same Thread::ConditionVariable, ConditionVariable
  end

  def test_signal_wakes_a_waiter
    threads, state = start_waiters(1)
    @m.synchronize { @cv.signal }
    threads.each(&:join)
    assert_equal 1, state[:woken]
  end

  def test_signal_wakes_only_one_waiter
    threads, state = start_waiters(3)
    @m.synchronize { @cv.signal }
    wait_until("one waiter done") { threads.count(&:alive?) == 2 }
    10.times { Thread.pass }
    assert_equal 1, @m.synchronize { state[:woken] }
    assert_equal 2, threads.count(&:alive?)
    @m.synchronize { @cv.broadcast }
    threads.each(&:join)
  end

  def test_successive_signals_wake_successive_waiters
    threads, state = start_waiters(3)
    3.times do |i|
      @m.synchronize { @cv.signal }
      wait_until("waiter #{i + 1} done") { threads.count(&:alive?) == 2 - i }
    end
    assert_equal 3, state[:woken]
  end

  def test_broadcast_wakes_all_waiters
    threads, state = start_waiters(5)
    @m.synchronize { @cv.broadcast }
    threads.each(&:join)
    assert_equal 5, state[:woken]
  end

  def test_signal_without_waiters_returns_self
    assert_same @cv, @cv.signal
  end

  def test_broadcast_without_waiters_returns_self
    assert_same @cv, @cv.broadcast
  end

  def test_signal_before_wait_is_not_remembered
    @cv.signal
    @m.synchronize do
      t0 = MnTest.now
      @cv.wait(@m, 0.05)
      assert MnTest.now - t0 >= 0.05, "wait returned early: an earlier signal was remembered"
    end
  end

  def test_wait_with_timeout_returns_after_the_timeout
    @m.synchronize do
      t0 = MnTest.now
      @cv.wait(@m, 0.05)
      assert MnTest.now - t0 >= 0.05, "wait(m, 0.05) returned too early"
    end
  end

  def test_wait_with_timeout_reacquires_the_mutex
    @m.synchronize do
      @cv.wait(@m, 0.01)
      assert @m.owned?
    end
  end

  def test_wait_releases_the_mutex_while_waiting
    @m.lock
    t = Thread.new { @m.synchronize { @cv.signal; :signalled } }
    @cv.wait(@m, 10)
    assert @m.owned?
    @m.unlock
    assert_equal :signalled, t.value
  end

  def test_woken_waiter_reacquires_the_mutex_before_returning
    owned = nil
    t = Thread.new { @m.synchronize { @cv.wait(@m); owned = @m.owned? } }
    wait_until("waiter") { t.stop? && !@m.locked? }
    @m.synchronize { @cv.signal }
    t.join
    assert_equal true, owned
  end

  def test_wait_with_timeout_returns_early_when_signalled
    t = Thread.new do
      @m.synchronize do
        t0 = MnTest.now
        @cv.wait(@m, 30)
        MnTest.now - t0
      end
    end
    wait_until("waiter") { t.stop? && !@m.locked? }
    @m.synchronize { @cv.signal }
    assert t.value < 10, "signal did not end wait(m, 30)"
  end

  def test_wait_with_unlocked_mutex_raises_thread_error
    assert_raise(ThreadError) { @cv.wait(@m) }
  end

  def test_producer_consumer_with_condition_variable
    items = []
    got = []
    consumer = Thread.new do
      5.times do
        @m.synchronize do
          @cv.wait(@m) while items.empty?
          got << items.shift
        end
      end
    end
    5.times do |i|
      @m.synchronize { items << i; @cv.signal }
      Thread.pass
    end
    consumer.join
    assert_equal [0, 1, 2, 3, 4], got
  end
  # CRuby: wait returns what Mutex#sleep returns: nil when the timeout ran out, else the whole
  # seconds slept (0 for a prompt signal). Seen failing: mnrb returned the ConditionVariable.
  def test_wait_returns_what_the_sleep_returns
    assert_nil(@m.synchronize { @cv.wait(@m, 0.001) })
    threads, = start_waiters(1)
    t = Thread.new { @m.synchronize { @cv.wait(@m) } }
    wait_until("a second waiter") { t.status == "sleep" }
    @m.synchronize { @cv.broadcast }
    threads.each(&:join)
    assert_equal 0, t.value
  end

  # A mutex-like object of the program's own: wait returns its sleep's value.
  def test_wait_returns_a_custom_mutex_sleep_value
    m = Object.new
    def m.sleep(timeout = nil) = :slept
    assert_equal :slept, @cv.wait(m)
  end
end
