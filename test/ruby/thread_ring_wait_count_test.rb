# A ring's hop parks one thread and wakes the next in one step of the scheduler, which moves the
# count of threads waiting forever from the woken thread to the parked one (docs/PERFORMANCE.md,
# ring21k). Deadlock detection reads that count: once the token stops, every ring thread waits
# forever, and the main thread's own wait is a deadlock (CRuby raises fatal "No live threads
# left. Deadlock?" in the main thread); the ring threads sleep forever, as Thread#status and
# #inspect say (CRuby: "sleep", "sleep_forever").

class ThreadRingWaitCountTest < MnTest::Case
  N = 16
  LAPS = 50

  RING = <<~RUBY
    queues = Array.new(#{N}) { Queue.new }
    done = Queue.new
    threads = Array.new(#{N}) do |i|
      inbox, outbox = queues[i], queues[(i + 1) % #{N}]
      Thread.new do
        while (v = inbox.pop) >= 0
          if v == 0 then done << true else outbox << v - 1 end
        end
      end
    end
    queues[0] << #{N * LAPS} - 1
    done.pop
  RUBY

  # The script's output, or "hung" if it did not end (a missed deadlock waits forever).
  def run_child(script)
    io = IO.popen([RbConfig.ruby, "-e", script], err: [:child, :out])
    reader = Thread.new { io.read }
    out = reader.join(120) ? reader.value : "hung"
    Process.kill(:KILL, io.pid) if out == "hung"
    io.close
    out
  end

  def report
    "rescue Exception => e; print e.class, ': ', e.message.lines.first; end"
  end

  def test_main_popping_after_the_ring_stops_is_a_deadlock
    out = run_child(RING + "begin; Queue.new.pop; " + report)
    assert_equal "fatal: No live threads left. Deadlock?\n", out
  end

  def test_main_joining_a_ring_thread_after_the_ring_stops_is_a_deadlock
    out = run_child(RING + "begin; threads[3].join; " + report)
    assert_equal "fatal: No live threads left. Deadlock?\n", out
  end

  def test_main_waiting_while_the_ring_runs_is_no_deadlock
    out = run_child(RING + "queues[0] << #{N * LAPS} - 1; begin; done.pop; print :ok; " + report)
    assert_equal "ok", out
  end

  def test_ring_threads_sleep_forever_once_the_token_stops
    queues, threads, done = eval("#{RING.sub("done.pop", "")}; [queues, threads, done]")
    done.pop
    2000.times { break if threads.all?(&:stop?); Thread.pass }
    assert_equal ["sleep"] * N, threads.map(&:status)
    threads.each { |t| assert t.inspect.end_with?(" sleep_forever>"), t.inspect }
    queues.each { |q| q << -1 }
    threads.each(&:join)
    assert_equal [false] * N, threads.map(&:status)
  end
end
