# A message sent to a ractor waiting in receive puts that ractor in the sender's native thread's
# hand-off slot; when the sender then waits, it switches straight into it (core/src/sched.c,
# serve_slot) instead of going through its native thread's scheduler loop. These tests check what
# that path must keep: every message arrives, in order per sender, whatever the timeslice and the
# number of native threads; a ractor that ends right after sending; ractors with several threads;
# fairness (two ractors passing a message back and forth must not starve a third one, nor the main
# ractor's threads); deadlock detection.

class RactorHandoffTest < MnTest::Case
  BIN = RbConfig.ruby

  # A chain of n ractors; each forwards what it receives and checks that the numbers it receives
  # come in order (one sender: FIFO); the last one answers the main ractor, which checks them too.
  def chain(n, count, window)
    last = Ractor.current
    prev = last
    n.times do
      prev = Ractor.new(prev) do |nx|
        expect = 0
        while (v = Ractor.receive).is_a?(Integer)
          raise "got #{v}, expected #{expect}" unless v == expect
          expect += 1
          nx.send v
        end
        nx.send v + [expect]
      end
    end
    first = prev
    got = []
    sent = 0
    window.times { first.send sent; sent += 1 }
    while got.size < count
      got << Ractor.receive
      if sent < count
        first.send sent
        sent += 1
      end
    end
    first.send [:stop]
    assert_equal [:stop] + [count] * n, Ractor.receive
    assert_equal (0...count).to_a, got
  end

  def test_chain_with_one_message_in_flight
    chain(50, 200, 1)
  end

  def test_chain_with_many_messages_in_flight
    chain(30, 600, 17)   # ractors with messages queued: the slot is taken while others wait
  end

  def test_ractors_that_end_right_after_sending
    Warning[:experimental] = false
    main = Ractor.current
    200.times { |i| Ractor.new(main, i) { |m, k| m.send k } }
    assert_equal (0...200).to_a, Array.new(200) { Ractor.receive }.sort
  end

  # The receiving ractor has a second thread that is busy: the switch lands on whichever of its
  # threads is ready, and the busy one keeps its turns.
  def test_receivers_with_busy_threads
    Warning[:experimental] = false
    main = Ractor.current
    rs = Array.new(4) do
      Ractor.new(main) do |m|
        spin = Thread.new { x = 0; x += 1 while x < 200_000; x }
        sum = 0
        while (v = Ractor.receive) != :stop
          sum += v
          m.send v
        end
        m.send [sum, spin.value]
      end
    end
    300.times do |i|
      rs[i % 4].send i
      assert_equal i, Ractor.receive
    end
    rs.each { |r| r.send :stop }
    sums = Array.new(4) { Ractor.receive }.sort
    expected = (0...4).map { |k| (0...300).select { |i| i % 4 == k }.sum }.sort
    assert_equal expected.map { |s| [s, 200_000] }, sums
  end

  # Fairness between ractors: with one native thread, a pair passing a message back and forth must
  # leave time to a computing ractor, under any timeslice. Without it, the pair would only let the
  # other one run when a timer tick happens to find the hand-off slot full (~1 time in 1,000s): the
  # pair counts its round trips and gives up at 1,000,000 (busy needs a few hundred timeslices; the
  # hand-off slot lets the queue's head go first every 61st switch).
  def run_child(code, env)
    r, w = IO.pipe
    pid = spawn(env, BIN, "-e", code, out: w, err: w)
    w.close
    watchdog = Thread.new { sleep 120; Process.kill(:KILL, pid) rescue nil }   # a hung child
    out = r.read
    watchdog.kill
    r.close
    Process.wait(pid)
    [out, $?]
  end

  PING_PONG = <<~'RUBY'
    Warning[:experimental] = false
    main = Ractor.current
    busy = Ractor.new(main) { |m| Ractor.receive; x = 0; x += 1 while x < 5_000_000; m.send x }
    b = Ractor.new { a = Ractor.receive; loop { a.send Ractor.receive + 1 } }
    Ractor.new(b, busy, main) do |pb, bz, m|
      pb.send Ractor.current
      pb.send 0
      loop do
        v = Ractor.receive
        bz.send :go if v == 101             # busy starts mid-game
        m.send :starved if v == 2_000_001   # a million round trips
        pb.send v + 1
      end
    end
    puts Ractor.receive
    $stdout.flush
    exit!(0)
  RUBY

  def test_a_ping_pong_pair_does_not_starve_others
    [[1, 1], [1, 5], [2, 1]].each do |procs, slice|
      out, st = run_child(PING_PONG, { "RUBY_MAX_PROC" => procs.to_s, "MNRB_TIMESLICE" => slice.to_s })
      assert_equal "5000000\n", out, "RUBY_MAX_PROC=#{procs} MNRB_TIMESLICE=#{slice}"
      assert st.success?, st.inspect
    end
  end

  # A ractor whose main thread polls with Thread.pass while its other thread answers messages: with
  # one native thread for every ractor and a 5 s timeslice, each answer wakes the main ractor, which
  # gets the native thread only when the poller passes it on (CRuby's pass lets the OS run other
  # ractors' native threads; mnrb's gives the native thread to a ractor waiting for one). Before
  # (helper sem20i) the poller kept it a whole timeslice per round trip: 50 x 5 s, killed at 120 s
  # (RUBY_MAX_PROC=1's receive_direct_test took minutes the same way).
  POLLER = <<~'RUBY'
    Warning[:experimental] = false
    r = Ractor.new(Ractor.current) do |main|
      t = Thread.new { 50.times { main.send(Ractor.receive + 1) } }
      Thread.pass while t.alive?
      :done
    end
    50.times { |i| r.send i; raise "wrong answer" unless Ractor.receive == i + 1 }
    p r.take
    $stdout.flush
  RUBY

  def test_thread_pass_gives_the_native_thread_to_a_waiting_ractor
    [[1, 5000], [2, 5000]].each do |procs, slice|
      out, st = run_child(POLLER, { "RUBY_MAX_PROC" => procs.to_s, "MNRB_TIMESLICE" => slice.to_s })
      assert_equal ":done\n", out, "RUBY_MAX_PROC=#{procs} MNRB_TIMESLICE=#{slice}"
      assert st.success?, st.inspect
    end
  end

  def test_deadlock_is_still_reported_after_hand_offs
    skip "CRuby hangs on a ractor deadlock" unless RUBY_ENGINE == "mnrb"
    code = 'r = Ractor.new(Ractor.current) { |m| 100.times { |i| m.send i; Ractor.receive }; Ractor.receive }; ' \
           '100.times { Ractor.receive; r.send 0 }; Ractor.receive'
    out, st = run_child(code, { "RUBY_MAX_PROC" => "1" })
    assert out.include?("No live threads left. Deadlock?"), out
    refute st.success?
  end
end
