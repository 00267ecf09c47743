# GVL metrics (mrbgems/mnrb-gvltools). GVLTools::GlobalTimer, LocalTimer and WaitingThreads follow
# Shopify's gvltools gem (0.5): the tests for them also run on CRuby >= 3.3 with that gem installed
# (skipped when it is not). GVLTools::Stats is mnrb's own: those tests are mnrb-only.
#
# No sleep synchronizes anything here. Waits for the GVL come from threads that are ready while
# another runs: Queue hand-offs, Thread.pass, or CPU-bound loops preempted by the timeslice (so the
# spinning tests last SPIN seconds whatever the timeslice, 100 ms or 1 ms).

begin
  require "gvltools" if !Object.const_defined?(:GVLTools) && respond_to?(:require, true)
rescue LoadError
  nil
end

module GvlMetricsHelpers
  SPIN = 0.25   # seconds: more than two 100 ms timeslices
  MS = 1_000_000
  METRICS = %w(GlobalTimer LocalTimer WaitingThreads Stats)

  def setup
    skip "the gvltools gem is not available" unless Object.const_defined?(:GVLTools)
    quiesce
  end

  def teardown
    quiesce
  end

  def metric(name)
    GVLTools.const_defined?(name) ? GVLTools.const_get(name) : nil
  end

  # Every metric off and zero, as at start.
  def quiesce
    METRICS.each do |name|
      m = metric(name)
      next unless m
      m.disable
      m.reset
    end
  end

  def now_ns
    Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
  end

  # Holds the GVL for `seconds` of wall time unless preempted: a timeslice ends inside.
  def spin_for(seconds)
    deadline = MnTest.now + seconds
    n = 0
    n += 1 while MnTest.now < deadline
    n
  end

  # Two threads that take turns through Queues, `rounds` times: each parks on every pop, so every
  # round is a READY -> RESUMED wait for each of them.
  def ping_pong(rounds)
    ping = Queue.new
    pong = Queue.new
    t = Thread.new { rounds.times { ping.pop; pong << 1 } }
    rounds.times { ping << 1; pong.pop }
    t.join
    t
  end

  # Threads that are ready (CPU-bound) until told to stop: never parked, so whenever the caller
  # runs, each of them waits for the GVL.
  def spinners(n)
    stop = [false]
    threads = Array.new(n) { Thread.new { x = 0; x += 1 until stop[0]; x } }
    [threads, stop]
  end

  # A thread parked on a Queue pop, and the Queue that wakes it.
  def parked_thread
    q = Queue.new
    t = Thread.new { q.pop }
    wait_until("parked on the queue") { t.stop? }
    [t, q]
  end

  # Threads that give way at once whenever they run (Thread.pass) until told to stop: a pass by
  # the caller lets each of them run once and become ready again.
  def passers(n)
    stop = [false]
    threads = Array.new(n) { Thread.new { Thread.pass until stop[0] } }
    [threads, stop]
  end

  def histogram_total(h)
    h.map { |_, count| count }.sum
  end
end

class GvlToolsApiTest < MnTest::Case
  include GvlMetricsHelpers

  def test_every_metric_is_disabled_at_start
    assert_equal false, GVLTools::GlobalTimer.enabled?
    assert_equal false, GVLTools::LocalTimer.enabled?
    assert_equal false, GVLTools::WaitingThreads.enabled?
  end

  def test_enable_and_disable_toggle_one_metric_at_a_time
    GVLTools::GlobalTimer.enable
    assert_equal true, GVLTools::GlobalTimer.enabled?
    assert_equal false, GVLTools::LocalTimer.enabled?
    GVLTools::LocalTimer.enable
    GVLTools::GlobalTimer.disable
    assert_equal false, GVLTools::GlobalTimer.enabled?
    assert_equal true, GVLTools::LocalTimer.enabled?
  end

  def test_disabled_metrics_stay_zero_while_threads_wait
    [false, true].each do |global_on|
      GVLTools::GlobalTimer.enable if global_on   # the hook runs, for GlobalTimer only
      ping_pong(50)
      threads, stop = spinners(2)
      count = GVLTools::WaitingThreads.count
      stop[0] = true
      threads.each(&:join)
      assert_equal global_on, GVLTools::GlobalTimer.monotonic_time > 0
      assert_equal 0, GVLTools::LocalTimer.monotonic_time
      assert_equal 0, GVLTools::LocalTimer.for(threads[0]).monotonic_time
      assert_equal 0, count
      quiesce
    end
  end

  def test_global_timer_sums_the_waits_of_cpu_bound_threads
    GVLTools::GlobalTimer.enable
    t0 = now_ns
    threads = Array.new(2) { Thread.new { spin_for(SPIN) } }
    threads.each(&:join)
    wall = now_ns - t0
    waited = GVLTools::GlobalTimer.monotonic_time
    # While one spins the other waits: together they wait about the whole run, which no thread
    # can exceed (three threads at most wait at once: two spinners and main).
    assert waited > SPIN * 1e9 / 4, "GlobalTimer #{waited} ns after #{wall} ns of two spinners"
    assert waited < wall * 3, "GlobalTimer #{waited} ns exceeds #{wall} ns x 3 threads"
  end

  def test_global_timer_is_the_sum_of_every_local_timer
    GVLTools::GlobalTimer.enable
    GVLTools::LocalTimer.enable
    threads = Array.new(2) { Thread.new { 30.times { Thread.pass } } }
    threads.each(&:join)
    threads << ping_pong(20)
    locals = ([Thread.current] + threads).map { |t| GVLTools::LocalTimer.for(t).monotonic_time }
    assert locals.all? { |ns| ns > 0 }, "LocalTimers: #{locals.inspect}"
    # each wait is added to both, and every thread that waited since enable is in `locals`
    assert_equal locals.sum, GVLTools::GlobalTimer.monotonic_time
  end

  def test_global_timer_reset_restarts_from_zero_and_disable_freezes_it
    GVLTools::GlobalTimer.enable
    ping_pong(20)
    assert GVLTools::GlobalTimer.monotonic_time > 0
    GVLTools::GlobalTimer.reset
    assert_equal 0, GVLTools::GlobalTimer.monotonic_time
    ping_pong(20)
    grown = GVLTools::GlobalTimer.monotonic_time
    assert grown > 0
    GVLTools::GlobalTimer.disable
    ping_pong(20)
    assert_equal grown, GVLTools::GlobalTimer.monotonic_time
  end

  def test_local_timer_grows_for_a_waiting_thread_and_not_for_a_parked_one
    parked, q = parked_thread
    GVLTools::LocalTimer.enable
    spinning = Array.new(2) { Thread.new { spin_for(SPIN); GVLTools::LocalTimer.monotonic_time } }
    own = spinning.map(&:value)
    assert_equal 0, GVLTools::LocalTimer.for(parked).monotonic_time
    assert own.all? { |ns| ns > 0 }, "spinners' LocalTimers: #{own.inspect}"
    assert own.sum > SPIN * 1e9 / 4, "spinners waited #{own.inspect} ns"
    # read from outside after it died: at least what it saw itself (it may have waited again
    # between its read and its end, preempted at a safepoint), and no longer growing
    outside = spinning.map { |t| GVLTools::LocalTimer.for(t).monotonic_time }
    assert outside.zip(own).all? { |o, ns| o >= ns }, "outside #{outside.inspect}, own #{own.inspect}"
    assert_equal outside, spinning.map { |t| GVLTools::LocalTimer.for(t).monotonic_time }
    q << 1
    parked.join
    assert GVLTools::LocalTimer.for(parked).monotonic_time > 0, "woken: it waited for the GVL"
  end

  def test_local_timer_for_reads_and_resets_one_thread
    GVLTools::LocalTimer.enable
    t = ping_pong(30)
    mine = GVLTools::LocalTimer.monotonic_time
    timer = GVLTools::LocalTimer.for(t)
    assert timer.monotonic_time > 0
    assert mine > 0
    timer.reset
    assert_equal 0, timer.monotonic_time
    assert_equal mine, GVLTools::LocalTimer.monotonic_time, "resetting another thread's left mine"
    GVLTools::LocalTimer.reset
    assert_equal 0, GVLTools::LocalTimer.monotonic_time
  end

  def test_local_timer_is_thread_wide_not_per_fiber
    GVLTools::LocalTimer.enable
    ping_pong(10)
    outside = GVLTools::LocalTimer.monotonic_time
    assert outside > 0
    assert_equal outside, Fiber.new { GVLTools::LocalTimer.monotonic_time }.resume
  end

  def test_local_timer_for_a_non_thread_raises_type_error
    e = assert_raise(TypeError) { GVLTools::LocalTimer.for(42).monotonic_time }
    mnrb_only
    assert_equal "wrong argument type Integer (expected Thread)", e.message
  end

  def test_waiting_threads_counts_the_threads_ready_while_one_runs
    GVLTools::WaitingThreads.enable
    assert_equal 0, GVLTools::WaitingThreads.count
    go = Queue.new
    observer = Thread.new { go.pop; GVLTools::WaitingThreads.count }
    wait_until("observer parked") { observer.stop? }
    threads, stop = spinners(2)
    seen = GVLTools::WaitingThreads.count   # whenever this thread runs, both spinners wait
    go << 1                                 # the observer runs next, while both spinners wait
    seen_by_observer = observer.value
    stop[0] = true
    threads.each(&:join)
    assert_equal 2, seen
    assert_equal 2, seen_by_observer
    assert_equal 0, GVLTools::WaitingThreads.count
  end

  def test_waiting_threads_skips_threads_that_became_ready_before_enable
    [false, true].each do |other_metric_on|
      GVLTools::GlobalTimer.enable if other_metric_on   # the hook then sees their READY, unmarked
      threads, stop = spinners(3)
      GVLTools::WaitingThreads.enable
      assert_equal 0, GVLTools::WaitingThreads.count
      stop[0] = true
      threads.each(&:join)
      assert_equal 0, GVLTools::WaitingThreads.count, "went negative (other metric on: #{other_metric_on})"
      quiesce
    end
  end

  def test_waiting_threads_reset_raises_while_enabled_and_enable_restarts_at_zero
    GVLTools::WaitingThreads.enable
    threads, stop = spinners(2)
    assert_equal 2, GVLTools::WaitingThreads.count
    e = assert_raise(GVLTools::Error) { GVLTools::WaitingThreads.reset }
    assert_kind_of StandardError, e
    GVLTools::WaitingThreads.disable
    GVLTools::WaitingThreads.reset
    assert_equal 0, GVLTools::WaitingThreads.count
    GVLTools::WaitingThreads.enable
    assert_equal 0, GVLTools::WaitingThreads.count, "both spinners still wait, but since before enable"
    stop[0] = true
    threads.each(&:join)
    assert_equal 0, GVLTools::WaitingThreads.count
  end

  def test_waiting_threads_is_exact_when_threads_counted_before_a_restart_run_again
    [false, true].each do |other_metric_on|
      GVLTools::GlobalTimer.enable if other_metric_on   # the hook stays through the restart
      GVLTools::WaitingThreads.enable
      old, stop = passers(2)
      assert_equal 2, GVLTools::WaitingThreads.count
      GVLTools::WaitingThreads.disable
      GVLTools::WaitingThreads.enable       # restarts at 0 under the two old ones
      fresh, stop_fresh = passers(1)
      # 1, or up to 3 if this thread was preempted meanwhile and the old ones ran and readied again
      assert_include [1, 2, 3], GVLTools::WaitingThreads.count
      Thread.pass                           # each runs once (the old ones leave uncounted), readies again
      assert_equal 3, GVLTools::WaitingThreads.count, "other metric on: #{other_metric_on}"
      stop[0] = stop_fresh[0] = true
      (old + fresh).each(&:join)
      assert_equal 0, GVLTools::WaitingThreads.count
      quiesce
    end
  end

  def test_enabling_and_disabling_repeatedly_while_threads_run
    q = Queue.new
    workers = Array.new(4) { |i| Thread.new { 300.times { |n| q << n; Thread.pass if n % 3 == i % 3; q.pop } } }
    counts = []
    200.times do |i|
      %w(GlobalTimer LocalTimer WaitingThreads).each_with_index do |name, k|
        m = metric(name)
        (i + k).even? ? m.enable : m.disable
      end
      counts << GVLTools::WaitingThreads.count
      Thread.pass
    end
    workers.each(&:join)
    assert counts.all? { |c| c >= 0 && c <= 4 }, "WaitingThreads out of range: #{counts.uniq.inspect}"
    GVLTools::WaitingThreads.enable
    assert_equal 0, GVLTools::WaitingThreads.count
  end
end

class GvlStatsTest < MnTest::Case
  include GvlMetricsHelpers

  def setup
    mnrb_only   # GVLTools::Stats is mnrb's addition to gvltools
    super
  end

  def stats(t = Thread.current)
    GVLTools::Stats.thread(t)
  end

  def test_stats_are_zero_while_disabled
    ping_pong(20)
    r = GVLTools::Stats.ractor
    assert_equal false, GVLTools::Stats.enabled?
    assert_equal 0, r[:acquisitions]
    assert_equal 0, r[:wait_ns]
    assert_equal 0, stats[:hold_ns]
  end

  def test_acquisitions_and_hold_time_grow_with_each_hand_off
    GVLTools::Stats.enable
    t = ping_pong(40)
    s = stats(t)
    assert s[:acquisitions] >= 40, "a start and 39 wake-ups, got #{s[:acquisitions]}"
    assert s[:hold_ns] > 0
    assert s[:wait_ns] > 0
    assert_equal 0, s[:idle_ns][:sleep]
    assert s[:idle_ns][:queue] > 0
    r = GVLTools::Stats.ractor
    assert r[:acquisitions] > s[:acquisitions], "ractor #{r[:acquisitions]} vs thread #{s[:acquisitions]}"
    assert r[:hold_ns] >= s[:hold_ns]
    assert r[:wait_ns] >= s[:wait_ns]
  end

  def test_histogram_counts_sum_to_the_waits_measured
    GVLTools::Stats.enable
    GVLTools::Stats.reset
    t = ping_pong(50)
    s = stats(t)
    # every acquisition of a thread started after enable follows a measured wait
    assert_equal s[:acquisitions], histogram_total(s[:histogram])
    r = GVLTools::Stats.ractor
    assert_equal r[:acquisitions], histogram_total(r[:histogram]), "ractor histogram #{r.inspect}"
  end

  def test_histogram_buckets_are_powers_of_two_from_1us_to_1s_and_hold_the_longest_wait
    GVLTools::Stats.enable
    t = Thread.new { spin_for(0.05) }
    spin_for(0.02)   # t waits at least until this thread parks in join, or is preempted
    t.join
    s = stats(t)
    bounds = s[:histogram].map(&:first)
    assert_equal 22, bounds.size
    assert_equal 1024, bounds.first
    assert_equal 2**30, bounds[-2]
    assert_equal Float::INFINITY, bounds.last
    assert_equal (10..30).map { |i| 2**i }, bounds[0..-2]
    longest = s[:longest_wait_ns]
    assert longest > 0
    top = s[:histogram].select { |_, n| n > 0 }.last.first
    assert longest <= top && longest > top / 2, "longest wait #{longest} ns is not in the top bucket #{top}"
  end

  def test_preemptions_are_counted_for_cpu_bound_threads
    GVLTools::Stats.enable
    GVLTools::Stats.reset
    # The first spinner spins until the second has started, which only a preemption allows (one GVL),
    # then both spin SPIN: on a loaded machine the timer's ticks come late, so a fixed spin could end
    # before the timeslice did. A scheduler that never preempts fails after the 10 s bound.
    started = [false, false]
    threads = Array.new(2) do |i|
      Thread.new do
        started[i] = true
        bound = MnTest.now + 10
        nil until started.all? || MnTest.now > bound
        spin_for(SPIN)
      end
    end
    threads.each(&:join)
    per_thread = threads.map { |t| stats(t) }
    assert per_thread.map { |s| s[:preemptions] }.sum >= 1, "no preemption within 10 s of two spinners"
    per_thread.each do |s|   # a spinner never parks: every run but its last ends in a preemption
      assert_equal s[:acquisitions] - 1, s[:preemptions], s.inspect
    end
    assert GVLTools::Stats.ractor[:preemptions] >= per_thread.map { |s| s[:preemptions] }.sum
    held = per_thread.map { |s| s[:hold_ns] }.sum
    assert held > SPIN * 1e9 / 2, "spinners held the GVL #{held} ns"
    alone = Thread.new { :done }   # nobody else ready while it runs: never preempted
    alone.join
    assert_equal 0, stats(alone)[:preemptions]
  end

  def test_idle_time_is_attributed_to_what_the_thread_waited_on
    GVLTools::Stats.enable
    q = Queue.new
    told = Queue.new
    m = Mutex.new
    # Each wait is 30 ms from when t is seen parked in it (t.stop? right after t said what comes
    # next): only then is the wait's length the main thread's. Waiting for t.stop? alone after
    # `q << 1` could see t still parked on the queue, and t, woken late on a loaded machine, then
    # waited 23 ms on the mutex (1:1 mode, 1 of 3 suite runs at load ~18).
    t = Thread.new do
      sleep 0.03
      told << :slept
      q.pop
      told << :popped
      m.synchronize { :locked }
    end
    told.pop
    wait_until("parked on the queue") { t.stop? }
    m.lock
    sleep 0.03
    q << 1
    told.pop
    wait_until("blocked on the mutex") { t.stop? }
    sleep 0.03
    m.unlock
    t.join
    idle = stats(t)[:idle_ns]
    assert idle[:sleep] >= 25 * MS, "sleep: #{idle.inspect}"
    assert idle[:queue] >= 25 * MS, "queue: #{idle.inspect}"
    assert idle[:mutex] >= 25 * MS, "mutex: #{idle.inspect}"
    assert_equal 0, idle[:join]
    assert stats[:idle_ns][:join] > 0, "the main thread joined"
  end

  def test_waiting_gauge_of_the_ractor
    GVLTools::Stats.enable
    threads, stop = spinners(3)
    seen = GVLTools::Stats.ractor[:waiting]
    stop[0] = true
    threads.each(&:join)
    assert_equal 3, seen
    assert_equal 0, GVLTools::Stats.ractor[:waiting]
  end

  def test_gc_time_is_counted_for_the_thread_that_collects
    GVLTools::Stats.enable
    t = Thread.new { 3.times { GC.start } }
    t.join
    assert stats(t)[:gc_ns] > 0
    assert GVLTools::Stats.ractor[:gc_ns] >= stats(t)[:gc_ns]
  end

  def test_reset_zeroes_the_ractor_and_every_thread
    GVLTools::Stats.enable
    t = ping_pong(20)
    assert stats(t)[:acquisitions] > 0
    GVLTools::Stats.reset
    assert_equal 0, stats(t)[:acquisitions]
    assert_equal 0, stats(t)[:idle_ns][:queue]
    assert_equal 0, GVLTools::Stats.ractor[:acquisitions]
    assert_equal 0, histogram_total(GVLTools::Stats.ractor[:histogram])
    ping_pong(5)
    assert GVLTools::Stats.ractor[:acquisitions] > 0
    assert_equal 0, stats(t)[:acquisitions], "a dead thread stays at zero after a reset"
  end

  def test_a_thread_never_seen_has_zero_stats
    t, q = parked_thread
    GVLTools::Stats.enable
    s = stats(t)
    assert_equal 0, s[:acquisitions]
    assert_equal 0, s[:longest_wait_ns]
    assert_equal 0, histogram_total(s[:histogram])
    assert_equal [0], s[:idle_ns].values.uniq
    q << 1
    t.join
    assert_equal 1, stats(t)[:acquisitions]
  end

  def test_dead_threads_keep_their_numbers_and_collected_ones_are_freed
    GVLTools::Stats.enable
    t = ping_pong(10)
    before = stats(t)
    500.times.map { Thread.new { Thread.pass } }.each(&:join)   # records for threads soon garbage
    GC.start
    assert_equal before, stats(t)
    assert GVLTools::Stats.ractor[:acquisitions] >= 500
  end

  def test_a_wait_begun_while_every_metric_was_off_is_not_counted
    GVLTools::LocalTimer.enable
    go = Queue.new
    t = Thread.new { go.pop }          # ready now, seen by the hook
    GVLTools::LocalTimer.disable       # the hook goes before t runs: its RESUMED is not seen
    wait_until("parked") { t.stop? }
    go << 1                            # ready again, unseen
    GVLTools::LocalTimer.enable
    GVLTools::LocalTimer.for(t).reset
    t.join                             # RESUMED seen: its READY belongs to the old registration
    assert_equal 0, GVLTools::LocalTimer.for(t).monotonic_time
  end

  def test_stats_of_a_non_thread_raise_type_error
    e = assert_raise(TypeError) { GVLTools::Stats.thread(42) }
    assert_equal "wrong argument type Integer (expected Thread)", e.message
    e = assert_raise(TypeError) { GVLTools::Stats.thread(nil) }
    assert_equal "wrong argument type nil (expected Thread)", e.message
  end

  def test_runtime_stats_count_switches_blocking_calls_and_native_threads
    keys = %i[native_threads blocking_now blocking_calls blocking_retakes switches preemptions wakeup_preemptions stacks stacks_unguarded]
    before = GVLTools::Stats.runtime
    assert_equal keys, before.keys
    10.times.map { Thread.new { Thread.pass } }.each(&:join)
    File.open(__FILE__) { |f| f.flock(File::LOCK_SH) }     # flock runs as a blocking call
    after = GVLTools::Stats.runtime
    assert after[:switches] >= before[:switches] + 20, "#{before[:switches]} -> #{after[:switches]}"
    assert after[:blocking_calls] > before[:blocking_calls]
    assert_equal 0, after[:blocking_now]
    assert after[:native_threads] >= 1
    assert after[:stacks] >= 1
  end
end
