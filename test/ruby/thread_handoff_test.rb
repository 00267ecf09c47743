# Threads that wait in Queue#pop called straight from Ruby code park at the VM level: the next
# thread runs on the same C stack (mrbgems/mnrb-thread/src/handoff.c). These tests drive both ways
# a thread parked like that runs again (handed the C stack by the thread parking before it, or on
# a C stack of its own) and everything a parked thread must keep: its value, exceptions raised
# into it and out of it, kill and ensure, its backtrace and status, deadlock detection, parking
# inside C later (a method called from C), fibers, GC.

class ThreadHandoffTest < MnTest::Case
  def wait_until(what)
    2000.times { return if yield; Thread.pass; sleep 0.001 }
    flunk "timed out waiting for #{what}"
  end

  # A ring: each thread passes the token to the next one; every hand-off between two threads
  # parked in pop is a VM-level one.
  def ring(n, laps)
    queues = Array.new(n) { Queue.new }
    done = Queue.new
    threads = Array.new(n) do |i|
      inbox = queues[i]
      outbox = queues[(i + 1) % n]
      Thread.new do
        seen = 0
        while (v = inbox.pop) >= 0
          seen += 1
          if v == 0 then done << true else outbox << v - 1 end
        end
        seen
      end
    end
    queues[0] << n * laps - 1
    assert_equal true, done.pop
    queues.each { |q| q << -1 }
    assert_equal [laps] * n, threads.map(&:value)
  end

  def test_ring_passes_every_token
    ring(50, 40)
  end

  def test_ring_of_one_thread
    ring(1, 10)
  end

  def test_ring_survives_gc_in_every_thread
    queues = Array.new(20) { Queue.new }
    done = Queue.new
    threads = Array.new(20) do |i|
      Thread.new do
        while (v = queues[i].pop) >= 0
          GC.start if v % 7 == 0
          s = "token #{v}" * 3             # garbage made between hand-offs
          if v == 0 then done << s else queues[(i + 1) % 20] << v - 1 end
        end
      end
    end
    queues[0] << 399
    assert_equal "token 0" * 3, done.pop
    queues.each { |q| q << -1 }
    threads.each(&:join)
  end

  def test_value_and_exception_after_a_vm_park
    qa, qb = Queue.new, Queue.new
    a = Thread.new { qa.pop * 2 }
    b = Thread.new { qb.pop; raise ArgumentError, "late" }
    b.report_on_exception = false
    wait_until("both parked") { a.stop? && b.stop? }
    qa << 21
    qb << 0
    assert_equal 42, a.value
    e = assert_raise(ArgumentError) { b.join }
    assert_equal "late", e.message
  end

  # b is readied with the exception pending; a takes 1, parks again and hands its C stack to b,
  # whose continuation raises on that stack, into b's own frames.
  def test_raise_into_a_thread_handed_the_stack
    q1, q2, log = Queue.new, Queue.new, []
    b = Thread.new do
      begin
        q1.pop
        log << :not_raised
      rescue IndexError => e
        log << e.message
      end
    end
    a = Thread.new { 2.times { log << q2.pop } }
    wait_until("parked") { a.stop? && b.stop? }
    b.raise(IndexError, "into b")
    q2 << 1
    b.join
    assert_equal [1, "into b"], log.sort_by(&:to_s)    # CRuby may run b first
    q2 << 2
    a.join
    assert_equal [1, 2, "into b"], log.sort_by(&:to_s)
  end

  def test_raise_into_a_thread_resumed_on_its_own_stack
    q = Queue.new
    t = Thread.new { q.pop }
    wait_until("parked") { t.stop? }
    t.raise(IndexError, "into t")
    e = assert_raise(IndexError) { t.join }
    assert_equal "into t", e.message
  end

  def test_kill_runs_ensure_of_a_parked_thread
    q, log = Queue.new, []
    t = Thread.new do
      begin
        q.pop
      ensure
        log << :ensured
      end
    end
    wait_until("parked") { t.stop? }
    t.kill
    t.join
    assert_equal [:ensured], log
    assert_equal false, t.status
  end

  def test_status_and_backtrace_of_a_parked_thread
    q = Queue.new
    obj = Object.new
    def obj.waiting_in(q) = q.pop
    t = Thread.new { obj.waiting_in(q) }
    wait_until("parked") { t.stop? }
    assert_equal "sleep", t.status
    bt = t.backtrace.join("\n")
    assert bt.include?("waiting_in"), bt
    q << :ok
    assert_equal :ok, t.value
  end

  def test_parking_inside_c_after_parking_at_vm_level
    q = Queue.new
    popper = Object.new
    popper.define_singleton_method(:to_s) { q.pop.to_s }   # called from C by interpolation
    t = Thread.new do
      a = q.pop                     # VM level
      b = "#{popper}"               # inside C: to_s called by the interpreter's C code
      c = q.pop                     # VM level again
      [a, b, c]
    end
    3.times { |i| wait_until("parked #{i}") { t.stop? }; q << i }
    assert_equal [0, "1", 2], t.value
  end

  def test_parking_inside_a_fiber
    q = Queue.new
    t = Thread.new { Fiber.new { q.pop + 1 }.resume }
    wait_until("parked") { t.stop? }
    q << 1
    assert_equal 2, t.value
  end

  def test_many_arguments_to_the_block
    q = Queue.new
    t = Thread.new(*Array.new(16) { |i| i }) { |*a| a.sum + q.pop }
    wait_until("parked") { t.stop? }
    q << 1
    assert_equal 121, t.value
  end

  def test_deadlock_is_still_detected
    script = "q = Queue.new; t = Thread.new { q.pop }; sleep 0.01 until t.stop?; " \
             "begin; t.join; rescue Exception => e; print e.class, ': ', e.message.lines.first; end"
    out = IO.popen([RbConfig.ruby, "-e", script], &:read)
    assert_equal "fatal: No live threads left. Deadlock?\n", out
  end

  def test_a_computing_thread_beside_the_ring_is_preempted_and_finishes
    stop = false
    busy = Thread.new { n = 0; n += 1 until stop; n }
    ring(30, 30)
    stop = true
    assert busy.value > 0
  end

  def test_handoff_between_sized_queue_poppers
    queues = Array.new(10) { SizedQueue.new(1) }
    done = Queue.new
    threads = Array.new(10) do |i|
      Thread.new do
        while (v = queues[i].pop) >= 0
          if v == 0 then done << :done else queues[(i + 1) % 10] << v - 1 end
        end
      end
    end
    queues[0] << 99
    assert_equal :done, done.pop
    queues.each { |q| q << -1 }
    threads.each(&:join)
  end

  # Waiting in Mutex#lock parks at VM level too; whoever unlocks wakes the first waiter, which may
  # be handed a C stack by a thread parking in Queue#pop.
  def test_mutex_waiters_parked_at_vm_level
    m, q, log = Mutex.new, Queue.new, []
    m.lock
    threads = Array.new(6) { |i| Thread.new { m.synchronize { log << i }; q.pop } }
    wait_until("all waiting") { threads.all?(&:stop?) }
    assert_equal [], log
    m.unlock
    wait_until("all locked once") { log.size == 6 }
    assert_equal [0, 1, 2, 3, 4, 5], log.sort
    6.times { q << nil }
    threads.each(&:join)
    assert_equal false, m.locked?
  end

  def test_kill_a_thread_waiting_for_a_mutex
    m, log = Mutex.new, []
    m.lock
    t = Thread.new do
      m.lock
      log << :locked
    ensure
      log << :ensured
    end
    wait_until("waiting") { t.stop? }
    t.kill
    t.join
    assert_equal [:ensured], log
    assert_equal true, m.owned?
    m.unlock
  end

  def test_sleep_parked_at_vm_level_wakes_and_times_out
    t = Thread.new { sleep }
    wait_until("asleep") { t.stop? }
    assert_equal "sleep", t.status
    t.wakeup
    assert_kind_of Integer, t.value
    sleepers = Array.new(20) { |i| Thread.new { sleep 0.001 * (i % 3); i } }
    assert_equal (0...20).to_a, sleepers.map(&:value)
  end

  def test_raise_into_a_sleeping_thread
    t = Thread.new { sleep; :woke }
    wait_until("asleep") { t.stop? }
    t.raise(IndexError, "wake up")
    e = assert_raise(IndexError) { t.join }
    assert_equal "wake up", e.message
  end

  def test_sized_queue_pushers_parked_at_vm_level
    sq = SizedQueue.new(1)
    producers = Array.new(4) { |i| Thread.new { 5.times { |j| sq << [i, j] } } }
    got = Array.new(20) { sq.pop }
    producers.each(&:join)
    assert_equal 20, got.uniq.size
    4.times { |i| assert_equal (0...5).to_a, got.select { |a, _| a == i }.map(&:last) }
  end

  def test_kill_a_pusher_waiting_on_a_full_sized_queue
    sq = SizedQueue.new(1)
    sq << :first
    t = Thread.new { sq << :second }
    wait_until("waiting") { t.stop? }
    t.kill
    t.join
    assert_equal 1, sq.size
    assert_equal :first, sq.pop
  end

  def test_pop_with_a_timeout_parked_at_vm_level
    return if RUBY_VERSION < "3.2"       # Queue#pop(timeout:) is CRuby 3.2's
    q, first = Queue.new, Queue.new
    t = Thread.new { first << q.pop(timeout: 0.01); q.pop(timeout: 10) }
    assert_nil first.pop
    wait_until("waiting again") { q.num_waiting == 1 }
    q << :late
    assert_equal :late, t.value
  end

  def test_join_and_value_parked_at_vm_level
    q = Queue.new
    chain = [Thread.new { q.pop }]
    20.times { prev = chain.last; chain << Thread.new { prev.value + 1 } }
    wait_until("all waiting") { chain.all?(&:stop?) }
    q << 0
    assert_equal 20, chain.last.value
    waiter = Thread.new { Thread.new { q.pop }.join(0.01) }
    assert_nil waiter.value
    q << nil
  end

  def test_join_reraises_the_joined_threads_exception
    q = Queue.new
    failing = Thread.new { q.pop; raise IndexError, "joined" }
    failing.report_on_exception = false
    joiner = Thread.new do
      failing.join
    rescue IndexError => e
      e.message
    end
    wait_until("waiting") { joiner.stop? && failing.stop? }
    q << nil
    assert_equal "joined", joiner.value
  end

  def test_threads_passing_to_each_other
    counts = Array.new(8, 0)
    threads = Array.new(8) { |i| Thread.new { 200.times { counts[i] += 1; Thread.pass }; i } }
    assert_equal (0...8).to_a, threads.map(&:value)
    assert_equal [200] * 8, counts
  end

  def test_condition_variable_waiters_parked_at_vm_level
    m, cv, items, out = Mutex.new, ConditionVariable.new, [], Queue.new
    consumers = Array.new(4) do
      Thread.new { 5.times { m.synchronize { cv.wait(m) while items.empty?; out << items.shift } } }
    end
    wait_until("all waiting") { consumers.all?(&:stop?) }
    20.times { |i| m.synchronize { items << i; cv.signal } }
    consumers.each(&:join)
    assert_equal (0...20).to_a, Array.new(20) { out.pop }.sort
  end

  def test_kill_a_condition_variable_waiter_relocks_before_ensure
    m, cv, log = Mutex.new, ConditionVariable.new, []
    t = Thread.new do
      m.synchronize do
        cv.wait(m)
      ensure
        log << m.owned?
      end
    end
    wait_until("waiting") { t.stop? }
    t.kill
    t.join
    assert_equal [true], log
    assert_equal false, m.locked?
  end

  def test_condition_variable_wait_times_out
    m, cv = Mutex.new, ConditionVariable.new
    t = Thread.new { m.synchronize { cv.wait(m, 0.01); m.owned? } }
    assert_equal true, t.value
  end

  # A thread pinned to its native thread (it may not park at VM level: handoff.c) keeps exchanging
  # tokens with threads that do, in both directions, and its ring partners keep theirs.
  def test_a_thread_pinned_to_its_native_thread_hands_off_with_vm_parked_ones
    mnrb_only   # Thread#lock_native_thread: an mnrb extension
    to_pinned, from_pinned = Queue.new, Queue.new
    pinned = Thread.new do
      Thread.current.lock_native_thread
      500.times { from_pinned << to_pinned.pop + 1 }
      Thread.current.native_thread_locked?
    end
    relay = Thread.new { v = 0; 500.times { to_pinned << v; v = from_pinned.pop }; v }
    assert_equal 500, relay.value
    assert_equal true, pinned.value
  end
end
