# Stress: many threads, much switching. Each test stays under ~2 s on CRuby 3.1; the
# 100,000-thread test is mnrb-only (CRuby's 1:1 threads cannot hold that many).

class StressTest < MnTest::Case
  def test_thousand_threads_increment_a_counter_under_a_mutex
    m = Mutex.new
    count = 0
    threads = (1..1000).map do
      Thread.new do
        10.times do
          m.synchronize do
            v = count
            Thread.pass
            count = v + 1
          end
        end
      end
    end
    threads.each(&:join)
    assert_equal 10_000, count
  end

  def test_token_passes_twenty_laps_around_a_ring_of_500_threads
    n = 500
    laps = 20
    queues = (0...n).map { Queue.new }
    done = Queue.new
    threads = (0...n).map do |i|
      Thread.new do
        nxt = queues[(i + 1) % n]
        while (hops = queues[i].pop)
          if hops == n * laps
            done << hops
          else
            nxt << hops + 1
          end
        end
      end
    end
    queues[0] << 1
    assert_equal n * laps, done.pop
    queues.each(&:close)
    threads.each(&:join)
  end

  def test_producers_and_consumers_on_a_sized_queue_keep_checksums
    q = SizedQueue.new(16)
    producers = (0...8).map do |p|
      Thread.new do
        500.times { |i| q << p * 1000 + i }
      end
    end
    results = Queue.new
    consumers = (0...8).map do
      Thread.new do
        sum = 0
        n = 0
        while (x = q.pop)
          sum += x
          n += 1
        end
        results << [n, sum]
      end
    end
    producers.each(&:join)
    q.close
    consumers.each(&:join)
    counts = (1..8).map { results.pop }
    expected = (0...8).map { |p| (0...500).map { |i| p * 1000 + i }.sum }.sum
    assert_equal 4000, counts.map(&:first).sum
    assert_equal expected, counts.map(&:last).sum
  end

  def test_many_threads_created_and_joined_in_a_loop
    base = Thread.list.size
    total = 0
    200.times do |round|
      threads = (0...10).map { |i| Thread.new(round * 10 + i) { |x| x } }
      total += threads.map(&:value).sum
    end
    assert_equal 1999 * 2000 / 2, total
    assert_equal base, Thread.list.size
  end

  def test_threads_sleeping_tiny_random_durations_all_finish
    rng = Random.new(42)
    delays = (1..200).map { rng.rand * 0.01 }
    threads = delays.each_with_index.map { |d, i| Thread.new { sleep d; i } }
    assert_equal (0...200).to_a, threads.map(&:value)
  end

  def test_condition_variable_ping_pong
    m = Mutex.new
    cv = ConditionVariable.new
    turn = :ping
    log = []
    players = [[:ping, :pong], [:pong, :ping]].map do |me, other|
      Thread.new do
        500.times do
          m.synchronize do
            cv.wait(m) until turn == me
            log << me
            turn = other
            cv.broadcast
          end
        end
      end
    end
    players.each(&:join)
    assert_equal 1000, log.size
    assert log.each_slice(2).all? { |a, b| a == :ping && b == :pong }
  end

  def test_hundred_thousand_live_threads_blocked_on_a_queue
    mnrb_only
    # 1:1 mode gives each thread a native thread: the kernel's limits stop it well before 100,000,
    # as they stop CRuby (see the next test for the error it must raise instead of crashing)
    skip "needs M:N threads" if ENV["RUBY_MN_THREADS"] == "0"
    # sanitizer builds shadow every stack page they touch: they check safety, not capacity
    n = { "asan" => 10_000, "tsan" => 1_000 }.fetch(ENV["MNRB_SANITIZER"], 100_000)
    base = Thread.list.size
    q = Queue.new
    threads = (0...n).map { Thread.new { q.pop } }
    wait_until("#{n} threads waiting", 120) { q.num_waiting == n }
    assert_equal base + n, Thread.list.size
    n.times { |i| q << i }
    assert_equal n * (n - 1) / 2, threads.map(&:value).sum
  end

  def test_native_thread_exhaustion_in_one_to_one_mode_raises_thread_error
    mnrb_only
    skip "only 1:1 mode creates a native thread per thread" unless ENV["RUBY_MN_THREADS"] == "0"
    q = Queue.new
    threads = []
    error = assert_raise(ThreadError) do
      100_000.times { threads << Thread.new { q.pop } }
    end
    assert_equal "can't create Thread: ", error.message[0, 21]
    threads.size.times { q << nil }
    threads.each(&:join)
  end
end
