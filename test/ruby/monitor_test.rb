# Monitor and MonitorMixin::ConditionVariable (CRuby's monitor library): a re-entrant lock.

class MonitorTest < MnTest::Case
  def test_synchronize_returns_the_block_value
    assert_equal 7, Monitor.new.synchronize { 7 }
  end

  def test_synchronize_is_reentrant
    m = Monitor.new
    assert_equal :inner, m.synchronize { m.synchronize { :inner } }
  end

  def test_mon_locked_and_owned
    m = Monitor.new
    refute m.mon_locked?
    m.synchronize do
      assert m.mon_locked?
      assert m.mon_owned?
      t = Thread.new { m.mon_owned? }
      assert_equal false, t.value
    end
    refute m.mon_locked?
  end

  def test_exit_by_a_non_owner_raises_thread_error
    m = Monitor.new
    e = assert_raise(ThreadError) { m.exit }
    assert_equal "current fiber not owner", e.message
  end

  def test_try_enter_fails_while_another_thread_holds_it
    m = Monitor.new
    entered = Queue.new
    release = Queue.new
    holder = Thread.new { m.synchronize { entered << :in; release.pop } }
    assert_equal :in, entered.pop
    assert_equal false, m.try_enter
    release << :out
    holder.join
    assert_equal true, m.try_enter
    m.exit
  end

  def test_synchronize_excludes_other_threads
    m = Monitor.new
    count = 0
    threads = 20.times.map do
      Thread.new { 200.times { m.synchronize { m.synchronize { c = count; Thread.pass; count = c + 1 } } } }
    end
    threads.each(&:join)
    assert_equal 4000, count
  end

  def test_released_when_the_block_raises
    m = Monitor.new
    assert_raise(RuntimeError) { m.synchronize { raise "x" } }
    refute m.mon_locked?
  end

  def test_condition_variable_wait_and_signal
    m = Monitor.new
    cond = m.new_cond
    ready = false
    waiter = Thread.new { m.synchronize { cond.wait_until { ready }; :done } }
    wait_until("waiter sleeping") { waiter.stop? }
    m.synchronize { ready = true; cond.signal }
    assert_equal :done, waiter.value
  end

  def test_condition_variable_wait_keeps_the_reentrant_count
    m = Monitor.new
    cond = m.new_cond
    waiter = Thread.new do
      m.synchronize { m.synchronize { cond.wait(0.01); m.mon_owned? } }
    end
    assert_equal true, waiter.value
    refute m.mon_locked?
  end
end
