# Thread::Mutex (CRuby 3.1 Mutex docs).

class MutexTest < MnTest::Case
  def setup
    @m = Mutex.new
  end

  def test_mutex_is_thread_mutex
    assert_same Thread::Mutex, Mutex
  end

  def test_new_mutex_is_unlocked
    refute @m.locked?
    refute @m.owned?
  end

  def test_lock_returns_self
    assert_same @m, @m.lock
    @m.unlock
  end

  def test_lock_makes_it_locked_and_owned
    @m.lock
    assert @m.locked?
    assert @m.owned?
    @m.unlock
  end

  def test_unlock_returns_self_and_releases
    @m.lock
    assert_same @m, @m.unlock
    refute @m.locked?
  end

  def test_try_lock_acquires_a_free_mutex
    assert_equal true, @m.try_lock
    assert @m.owned?
    @m.unlock
  end

  def test_try_lock_returns_false_when_already_locked_by_self
    @m.lock
    assert_equal false, @m.try_lock
    @m.unlock
  end

  def test_try_lock_returns_false_when_locked_by_another_thread
    @m.lock
    assert_equal false, Thread.new { @m.try_lock }.value
    @m.unlock
  end

  def test_locked_is_true_and_owned_is_false_in_another_thread
    @m.lock
    assert_equal [true, false], Thread.new { [@m.locked?, @m.owned?] }.value
    @m.unlock
  end

  def test_synchronize_returns_the_block_value
    assert_equal 42, @m.synchronize { 42 }
  end

  def test_synchronize_holds_the_lock_inside_the_block
    assert_equal [true, true], @m.synchronize { [@m.locked?, @m.owned?] }
    refute @m.locked?
  end

  def test_synchronize_unlocks_when_the_block_raises
    assert_raise(RuntimeError) { @m.synchronize { raise "inside" } }
    refute @m.locked?
  end

  def test_synchronize_unlocks_when_the_block_breaks
    [1].each { @m.synchronize { break } }
    refute @m.locked?
  end

  def test_synchronize_without_block_raises_thread_error
    e = assert_raise(ThreadError) { @m.synchronize }
    assert_equal "must be called with a block", e.message
  end

  def test_unlock_of_an_unlocked_mutex_raises_thread_error
    e = assert_raise(ThreadError) { @m.unlock }
    assert_equal "Attempt to unlock a mutex which is not locked", e.message
  end

  def test_unlock_of_a_mutex_locked_by_another_thread_raises_thread_error
    q = Queue.new
    t = Thread.new { @m.lock; q << :locked; Thread.stop; @m.unlock }
    q.pop
    e = assert_raise(ThreadError) { @m.unlock }
    assert_equal "Attempt to unlock a mutex which is locked by another thread/fiber", e.message
    wait_until("owner stopped") { t.stop? }
    t.run
    t.join
  end

  def test_relock_by_the_owner_raises_thread_error
    @m.lock
    e = assert_raise(ThreadError) { @m.lock }
    assert_equal "deadlock; recursive locking", e.message
    assert @m.owned?
    @m.unlock
  end

  def test_nested_synchronize_raises_thread_error
    e = assert_raise(ThreadError) { @m.synchronize { @m.synchronize {} } }
    assert_equal "deadlock; recursive locking", e.message
    refute @m.locked?
  end

  def test_lock_blocks_until_the_owner_unlocks
    @m.lock
    t = Thread.new { @m.lock; :acquired }
    wait_until("waiter blocked") { t.stop? }
    assert t.alive?
    @m.unlock
    assert_equal :acquired, t.value
  end

  def test_mutex_held_by_a_finished_thread_is_released
    Thread.new { @m.lock }.join
    refute @m.locked?
    assert @m.try_lock
    @m.unlock
  end

  def test_mutex_held_by_a_thread_killed_by_exception_is_released
    t = Thread.new do
      Thread.current.report_on_exception = false
      @m.lock
      raise "die holding the lock"
    end
    assert_raise(RuntimeError) { t.join }
    refute @m.locked?
  end

  def test_waiters_all_eventually_acquire
    @m.lock
    order = []
    threads = (1..5).map { |i| Thread.new { @m.synchronize { order << i } } }
    wait_until("waiters blocked") { threads.all?(&:stop?) }
    @m.unlock
    threads.each(&:join)
    assert_equal [1, 2, 3, 4, 5], order.sort
  end

  def test_contended_counter_is_exact
    count = 0
    threads = (1..20).map do
      Thread.new do
        200.times do
          @m.synchronize do
            v = count
            Thread.pass # invite a switch inside the critical section
            count = v + 1
          end
        end
      end
    end
    threads.each(&:join)
    assert_equal 4000, count
  end

  def test_lock_can_be_interrupted_by_kill
    @m.lock
    t = Thread.new { @m.lock }
    wait_until("waiter blocked") { t.stop? }
    t.kill.join
    refute t.alive?
    @m.unlock
    refute @m.locked?
  end
end

class MutexSleepTest < MnTest::Case
  def setup
    @m = Mutex.new
  end

  def test_sleep_with_timeout_returns_after_the_timeout
    @m.lock
    t0 = MnTest.now
    @m.sleep(0.05)
    assert MnTest.now - t0 >= 0.05, "Mutex#sleep(0.05) returned too early"
    @m.unlock
  end

  # CRuby 3.1 returns nil when the timeout elapsed (and the seconds slept when woken).
  def test_sleep_returns_nil_on_timeout
    @m.lock
    assert_nil @m.sleep(0.01)
    @m.unlock
  end

  def test_sleep_reacquires_the_lock_after_timeout
    @m.lock
    @m.sleep(0.01)
    assert @m.owned?
    @m.unlock
  end

  def test_sleep_releases_the_lock_while_sleeping
    main = Thread.current
    @m.lock
    t = Thread.new do
      @m.synchronize { :got_it }.tap { main.wakeup }
    end
    t0 = MnTest.now
    @m.sleep(10) # woken by the thread after it got the lock
    assert MnTest.now - t0 < 5, "Mutex#sleep was not woken"
    assert @m.owned?
    assert_equal :got_it, t.value
    @m.unlock
  end

  def test_sleep_returns_integer_seconds_when_woken
    main = Thread.current
    @m.lock
    t = Thread.new { @m.synchronize { main.wakeup } }
    r = @m.sleep(10)
    assert_kind_of Integer, r
    @m.unlock
    t.join
  end

  def test_sleep_on_an_unlocked_mutex_raises_thread_error
    e = assert_raise(ThreadError) { @m.sleep(0.01) }
    assert_equal "Attempt to unlock a mutex which is not locked", e.message
  end
end
