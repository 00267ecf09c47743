# Thread#kill ends a thread wherever it waits (CRuby): the kill is no exception, so no `rescue`
# clause (not even `rescue Exception`) stops it, its ensure clauses run, #join returns the thread,
# and nothing is reported. A second kill does not cut the ensure clauses of a dying thread short.

class ThreadKillBlockedTest < MnTest::Case
  def blocked(&blk)
    t = Thread.new(&blk)
    wait_until("the thread to block") { t.stop? }
    t
  end

  def assert_killed(t)
    assert_same t, t.kill
    assert_same t, t.join(30)
    assert_equal false, t.status
    assert_nil t.value
  end

  def test_kill_in_condition_variable_wait
    m = Mutex.new
    cv = ConditionVariable.new
    ensured = false
    t = blocked { m.synchronize { begin; cv.wait(m); ensure; ensured = m.owned?; end } }
    assert_killed t
    assert ensured, "the ensure clause ran with the mutex re-locked"
    assert_equal false, m.locked?
  end

  def test_kill_in_condition_variable_wait_with_a_timeout
    m = Mutex.new
    cv = ConditionVariable.new
    assert_killed blocked { m.synchronize { cv.wait(m, 100) } }
  end

  def test_kill_in_monitor_wait
    require "monitor"
    mon = Monitor.new
    cond = mon.new_cond
    assert_killed blocked { mon.synchronize { cond.wait } }
    assert_equal true, mon.try_enter
  end

  def test_kill_is_not_rescued_around_condition_variable_wait
    m = Mutex.new
    cv = ConditionVariable.new
    rescued = 0
    t = blocked { m.synchronize { loop { begin; cv.wait(m); rescue Exception; rescued += 1; end } } }
    assert_killed t
    assert_equal 0, rescued
  end

  def test_kill_in_queue_pop
    assert_killed blocked { Queue.new.pop }
  end

  def test_kill_in_sized_queue_push
    q = SizedQueue.new(1)
    q << 1
    assert_killed blocked { q << 2 }
  end

  def test_kill_in_sleep
    assert_killed blocked { sleep }
  end

  def test_kill_in_mutex_lock
    m = Mutex.new
    m.lock
    assert_killed blocked { m.lock }
    m.unlock
    assert_equal true, m.try_lock
  end

  def test_kill_in_join
    other = Thread.new { sleep }
    assert_killed blocked { other.join }
    other.kill.join
  end

  def test_a_second_kill_lets_the_ensure_clause_finish
    entered = Queue.new
    go = Queue.new
    finished = false
    t = blocked { begin; sleep; ensure; entered << 1; go.pop; finished = true; end }
    t.kill
    entered.pop
    wait_until("the ensure clause to wait") { t.stop? }
    t.kill
    go << 1
    t.join
    assert finished, "the ensure clause ran to its end"
  end
end
