# Wake-up preemption (mnrb's policy, docs/DESIGN.md): threads woken by timers and I/O beside
# threads that compute, yield and pass. The behaviour Ruby code sees is CRuby's; these tests check
# that every mix of wake-ups, passes and preemptions keeps the scheduler consistent (a thread once
# switched to itself here, in 1:1 mode: a crash).

class WakeupPreemptionTest < MnTest::Case
  def test_threads_that_sleep_and_pass_in_turn
    ths = 5.times.map { Thread.new { 10.times { sleep 0.0005; Thread.pass } } }
    ths.each(&:join)
    assert ths.none?(&:alive?)
  end

  def test_sleepers_beside_a_computing_thread_all_finish
    done = false
    counter = Thread.new { n = 0; n += 1 until done; n }
    sleepers = 8.times.map { |i| Thread.new { 20.times { sleep 0.0002 * (i + 1) }; i } }
    assert_equal (0...8).to_a, sleepers.map(&:value)
    done = true
    assert counter.value > 0
  end

  def test_io_wakeups_beside_computing_and_passing_threads
    r, w = IO.pipe
    stop = false
    spinners = 2.times.map { Thread.new { n = 0; until stop; n += 1; Thread.pass if n % 1000 == 0; end; n } }
    reader = Thread.new { got = 0; 50.times { got += r.read(1).size }; got }
    writer = Thread.new { 50.times { sleep 0.0003; w.write "x" } }
    assert_equal 50, reader.value
    writer.join
    stop = true
    spinners.each { |t| assert t.value > 0 }
    r.close
    w.close
  end
end
