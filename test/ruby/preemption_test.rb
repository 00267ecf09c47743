# Preemption: a thread that never blocks must not starve the others. CRuby switches threads
# when the 100 ms timeslice expires; mnrb's timer must do the same, so these tests are not
# mnrb-only.

class PreemptionTest < MnTest::Case
  def test_main_thread_runs_while_another_thread_spins_until_a_flag
    flag = false
    started = false
    spinner = Thread.new do
      started = true
      n = 0
      n += 1 until flag
      n
    end
    wait_until("spinner started") { started }
    flag = true # only reached if the spinner gets preempted
    assert_same spinner, spinner.join(10), "spinner did not see the flag"
    assert spinner.value > 0
  end

  def test_spinning_thread_sees_a_flag_set_by_another_spinning_thread
    flag = false
    go = false
    started = []
    waiter = Thread.new { started << :waiter; n = 0; n += 1 until flag; n }
    setter = Thread.new do
      started << :setter
      n = 0
      n += 1 until go
      flag = true
      n
    end
    wait_until("both threads started") { started.size == 2 }
    go = true # the setter spins until it sees this, then releases the waiter
    assert_same setter, setter.join(10), "setter never saw go"
    assert_same waiter, waiter.join(10), "waiter never saw the flag"
  end

  def test_busy_threads_all_make_progress
    counters = Array.new(4, 0)
    stop = false
    threads = (0...4).map { |i| Thread.new { counters[i] += 1 until stop } }
    wait_until("every thread ran", 20) { counters.all? { |c| c > 0 } }
    stop = true
    threads.each(&:join)
    assert counters.all? { |c| c > 0 }, "a busy thread starved: #{counters.inspect}"
  end

  def test_preemption_inside_a_block_passed_to_a_builtin_iterator
    flag = false
    started = false
    spinner = Thread.new do
      started = true
      1_000_000_000_000.times { |i| break i + 1 if flag }
    end
    wait_until("spinner started") { started }
    flag = true
    assert_same spinner, spinner.join(10)
    assert spinner.value > 0
  end
end

class LockNativeThreadTest < MnTest::Case
  def setup
    mnrb_only # Thread#lock_native_thread pins a thread to its native thread: an mnrb extension
  end

  def test_lock_native_thread_returns_true
    assert_equal true, Thread.new { Thread.current.lock_native_thread }.value
  end

  def test_thread_keeps_working_after_lock_native_thread
    q = Queue.new
    out = Queue.new
    t = Thread.new do
      Thread.current.lock_native_thread
      sleep 0.01
      x = q.pop
      Thread.pass
      out << x * 2
      :finished
    end
    q << 21
    assert_equal 42, out.pop
    assert_equal :finished, t.value
  end

  def test_other_threads_keep_running_beside_a_locked_thread
    q = Queue.new
    locked = Thread.new { Thread.current.lock_native_thread; q.pop }
    others = (1..10).map { |i| Thread.new { i * 2 } }
    assert_equal (1..10).map { |i| i * 2 }, others.map(&:value)
    q << :release
    assert_equal :release, locked.value
  end
end
