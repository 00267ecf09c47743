# Thread#status, #alive? and #stop? through a thread's life (CRuby 3.1 Thread docs).
# status: "run" (running or runnable), "sleep" (sleeping or waiting), "aborting" (being killed),
# false (finished normally or killed), nil (terminated by an exception).

class ThreadStatusTest < MnTest::Case
  def test_current_thread_status_is_run
    assert_equal "run", Thread.current.status
  end

  def test_status_is_run_inside_the_thread_itself
    assert_equal "run", Thread.new { Thread.current.status }.value
  end

  def test_status_is_sleep_while_blocked_on_queue_pop
    q = Queue.new
    t = Thread.new { q.pop }
    wait_until("thread sleeping") { t.status == "sleep" }
    assert_equal "sleep", t.status
    q << 1
    t.join
  end

  def test_status_is_sleep_while_in_kernel_sleep
    t = Thread.new { sleep }
    wait_until("thread sleeping") { t.status == "sleep" }
    assert_equal "sleep", t.status
    t.run
    t.join
  end

  def test_status_is_sleep_while_waiting_for_a_mutex
    m = Mutex.new
    m.lock
    t = Thread.new { m.synchronize { :got } }
    wait_until("thread waiting for the mutex") { t.status == "sleep" }
    m.unlock
    assert_equal :got, t.value
  end

  def test_status_is_false_after_normal_termination
    t = Thread.new { 1 }
    t.join
    assert_equal false, t.status
  end

  def test_status_is_false_after_kill
    t = Thread.new { Thread.stop }
    wait_until("thread stopped") { t.stop? }
    t.kill.join
    assert_equal false, t.status
  end

  def test_status_is_nil_after_termination_by_exception
    t = Thread.new do
      Thread.current.report_on_exception = false
      raise "boom"
    end
    assert_raise(RuntimeError) { t.join }
    assert_nil t.status
  end

  def test_status_is_aborting_while_ensure_runs_after_kill
    q = Queue.new
    seen = Queue.new
    t = Thread.new do
      begin
        q << :ready
        Thread.stop
      ensure
        seen << Thread.current.status
      end
    end
    q.pop
    wait_until("thread stopped") { t.stop? }
    t.kill
    assert_equal "aborting", seen.pop
    t.join
  end

  def test_alive_is_true_while_running_and_false_after_finish
    q = Queue.new
    t = Thread.new { q.pop }
    assert t.alive?
    q << 1
    t.join
    refute t.alive?
  end

  def test_alive_is_true_for_the_current_thread
    assert Thread.current.alive?
    assert Thread.new { Thread.current.alive? }.value
  end

  def test_alive_is_false_after_termination_by_exception
    t = Thread.new do
      Thread.current.report_on_exception = false
      raise "boom"
    end
    assert_raise(RuntimeError) { t.join }
    refute t.alive?
  end

  def test_stop_is_false_for_the_running_thread
    refute Thread.current.stop?
    refute Thread.new { Thread.current.stop? }.value
  end

  def test_stop_is_true_for_a_sleeping_thread
    q = Queue.new
    t = Thread.new { q.pop }
    wait_until("thread sleeping") { t.status == "sleep" }
    assert t.stop?
    q << 1
    t.join
  end

  def test_stop_is_true_for_a_dead_thread
    t = Thread.new {}
    t.join
    assert t.stop?
  end
end
