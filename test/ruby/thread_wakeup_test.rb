# Thread#wakeup / #run and Thread.stop (CRuby 3.1 Thread docs).

class ThreadWakeupTest < MnTest::Case
  def sleeping_thread(&blk)
    t = Thread.new(&blk)
    wait_until("thread sleeping") { t.status == "sleep" }
    t
  end

  def test_wakeup_ends_kernel_sleep_without_argument
    t = sleeping_thread { sleep; :woke }
    t.wakeup
    assert_equal :woke, t.value
  end

  def test_wakeup_ends_a_timed_sleep_early
    t = sleeping_thread do
      t0 = MnTest.now
      sleep 30
      MnTest.now - t0
    end
    t.wakeup
    assert t.value < 10, "sleep(30) was not interrupted by wakeup"
  end

  def test_wakeup_returns_the_thread
    t = sleeping_thread { sleep }
    assert_same t, t.wakeup
    t.join
  end

  def test_run_wakes_a_sleeping_thread
    t = sleeping_thread { sleep; :ran }
    assert_same t, t.run
    assert_equal :ran, t.value
  end

  def test_thread_stop_sleeps_until_wakeup
    t = sleeping_thread { Thread.stop; :resumed }
    assert_equal "sleep", t.status
    t.wakeup
    assert_equal :resumed, t.value
  end

  def test_thread_stop_returns_nil
    t = sleeping_thread { Thread.stop }
    t.run
    assert_nil t.value
  end

  def test_wakeup_on_a_dead_thread_raises_thread_error
    t = Thread.new {}
    t.join
    e = assert_raise(ThreadError) { t.wakeup }
    assert_equal "killed thread", e.message
  end

  def test_run_on_a_dead_thread_raises_thread_error
    t = Thread.new {}
    t.join
    e = assert_raise(ThreadError) { t.run }
    assert_equal "killed thread", e.message
  end

  def test_wakeup_does_not_end_a_queue_pop
    q = Queue.new
    t = sleeping_thread { q.pop }
    t.wakeup
    assert_nil t.join(0.05), "wakeup ended Queue#pop"
    q << :item
    assert_equal :item, t.value
  end

  def test_thread_stop_in_the_only_thread_raises_thread_error
    e = assert_raise(ThreadError) { Thread.stop }
    assert_equal "stopping only thread\n\tnote: use sleep to stop forever", e.message
  end
end
