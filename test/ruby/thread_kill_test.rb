# Thread#kill / #exit / #terminate, Thread.kill and Thread.exit (CRuby 3.1 Thread docs).

class ThreadKillTest < MnTest::Case
  def stopped_thread(&blk)
    t = Thread.new(&blk)
    wait_until("thread stopped") { t.stop? }
    t
  end

  def test_kill_returns_the_thread
    t = stopped_thread { Thread.stop }
    assert_same t, t.kill
    t.join
  end

  def test_kill_terminates_a_sleeping_thread
    t = stopped_thread { sleep; :woke }
    t.kill
    t.join
    refute t.alive?
    assert_nil t.value
  end

  def test_kill_terminates_a_thread_blocked_on_queue_pop
    q = Queue.new
    t = stopped_thread { q.pop }
    t.kill.join
    refute t.alive?
    assert_equal 0, q.num_waiting
  end

  def test_kill_terminates_a_thread_waiting_for_a_mutex
    m = Mutex.new
    m.lock
    t = stopped_thread { m.lock; :locked }
    t.kill.join
    refute t.alive?
    m.unlock
    refute m.locked?
  end

  def test_kill_runs_ensure_blocks
    log = []
    t = stopped_thread do
      begin
        Thread.stop
      ensure
        log << :ensure
      end
    end
    t.kill.join
    assert_equal [:ensure], log
  end

  def test_kill_runs_nested_ensure_blocks_innermost_first
    log = []
    t = stopped_thread do
      begin
        begin
          sleep
        ensure
          log << :inner
        end
      ensure
        log << :outer
      end
    end
    t.kill.join
    assert_equal [:inner, :outer], log
  end

  def test_kill_is_not_caught_by_rescue_exception
    log = []
    t = stopped_thread do
      begin
        Thread.stop
      rescue Exception
        log << :rescued
      end
      log << :after
    end
    t.kill.join
    assert_equal [], log
  end

  def test_kill_releases_mutexes_held_by_the_thread
    m = Mutex.new
    t = stopped_thread { m.lock; Thread.stop }
    assert m.locked?
    t.kill.join
    refute m.locked?
    assert m.try_lock
    m.unlock
  end

  def test_kill_on_a_dead_thread_returns_the_thread
    t = Thread.new {}
    t.join
    assert_same t, t.kill
    refute t.alive?
  end

  def test_exit_is_an_alias_of_kill
    t = stopped_thread { Thread.stop }
    assert_same t, t.exit
    t.join
    assert_equal false, t.status
  end

  def test_terminate_is_an_alias_of_kill
    t = stopped_thread { Thread.stop }
    assert_same t, t.terminate
    t.join
    assert_equal false, t.status
  end

  def test_thread_kill_class_method_kills_the_given_thread
    t = stopped_thread { Thread.stop }
    Thread.kill(t)
    t.join
    refute t.alive?
  end

  def test_thread_exit_terminates_the_current_thread
    log = []
    t = Thread.new do
      log << :before
      Thread.exit
      log << :after
    end
    t.join
    assert_equal [:before], log
    assert_nil t.value
    assert_equal false, t.status
  end

  def test_thread_exit_runs_ensure_blocks
    log = []
    Thread.new do
      begin
        Thread.exit
      ensure
        log << :ensure
      end
    end.join
    assert_equal [:ensure], log
  end

  def test_kill_from_inside_the_thread_terminates_it
    log = []
    t = Thread.new do
      Thread.current.kill
      log << :after
    end
    t.join
    assert_equal [], log
    assert_equal false, t.status
  end

  def test_killed_thread_is_removed_from_thread_list
    t = stopped_thread { Thread.stop }
    assert_include Thread.list, t
    t.kill.join
    refute Thread.list.include?(t)
  end

  def test_kill_interrupts_a_busy_thread
    started = Queue.new
    t = Thread.new do
      started << true
      n = 0
      loop { n += 1 }
    end
    started.pop
    t.kill
    assert_same t, t.join(10), "busy thread was not killed"
    refute t.alive?
  end
end
