# Threads and their tools inside ractors (CRuby: each ractor has its own threads, sharing that
# ractor's GVL; Thread, Queue, Mutex, ConditionVariable and sleep work in every ractor).

class RactorThreadsTest < MnTest::Case
  def test_threads_and_queue_in_a_ractor
    r = Ractor.new do
      q = Queue.new
      threads = 4.times.map { |i| Thread.new { q << i * i } }
      threads.each(&:join)
      4.times.map { q.pop }.sort
    end
    assert_equal [0, 1, 4, 9], r.take
  end

  def test_mutex_and_condition_variable_in_a_ractor
    r = Ractor.new do
      m = Mutex.new
      cv = ConditionVariable.new
      ready = false
      t = Thread.new { m.synchronize { cv.wait(m) until ready; :woken } }
      m.synchronize { ready = true; cv.signal }
      count = 0
      4.times.map { Thread.new { 1000.times { m.synchronize { count += 1 } } } }.each(&:join)
      [t.value, count]
    end
    assert_equal [:woken, 4000], r.take
  end

  def test_sleep_in_a_ractor
    r = Ractor.new do
      t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      sleep 0.02
      Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
    end
    assert r.take >= 0.019
  end

  def test_thread_list_and_main_are_per_ractor
    r = Ractor.new do
      t = Thread.new { Thread.stop }
      Thread.pass until t.status == "sleep"
      n = Thread.list.size
      same = Thread.main == Thread.current
      t.wakeup
      t.join
      [n, same]
    end
    assert_equal [2, true], r.take
  end

  def test_a_thread_of_a_ractor_receives
    r = Ractor.new { Thread.new { Ractor.receive * 2 }.value }
    r << 21
    assert_equal 42, r.take
  end

  def test_deadlock_inside_a_ractor_fails_that_ractor
    r = Ractor.new { Queue.new.pop }
    e = assert_raise(Ractor::RemoteError) { r.take }
    assert e.cause.message.start_with?("No live threads left. Deadlock?"), e.cause.message
  end

  # Built-ins with process-wide state in mruby (pack's base64 table, Random, Time, symbols, GC,
  # IO) used by ractors running in parallel while others are being created: for ThreadSanitizer.
  def test_builtins_in_parallel_ractors
    rs = 4.times.map do |i|
      Ractor.new(i) do |k|
        s = 0
        100.times do |j|
          s += [j.to_s].pack("m").unpack("m")[0].size
          s += rand(10) >= 0 ? 1 : 0
          s += Time.now.to_i > 0 ? 1 : 0
          $stdout.write("")
          s += format("%05d", j).size + "r#{k}x#{j}".to_sym.size
          GC.start if j % 40 == 0
        end
        s
      end
    end
    more = 8.times.map { |i| Ractor.new(i) { |x| x.to_s * 3 } }
    assert_equal 8.times.map { |i| i.to_s * 3 }, more.map(&:take)
    assert rs.map(&:take).all? { |s| s > 1000 }
  end

  def test_ractors_run_in_parallel
    mnrb_only   # CRuby 3.1 too, but its timing depends on its GC stopping every ractor
    t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    Ractor.new { ractor_threads_spin(0.2) }.take
    one = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
    t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    rs = 2.times.map { Ractor.new { ractor_threads_spin(0.2) } }
    counts = rs.map(&:take)
    two = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
    assert counts.all? { |c| c > 0 }
    assert two < one * 1.8, "2 ractors took #{two}s, 1 took #{one}s"
  end
end

def ractor_threads_spin(seconds)
  n = 0
  stop = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
  n += 1 while Process.clock_gettime(Process::CLOCK_MONOTONIC) < stop
  n
end
