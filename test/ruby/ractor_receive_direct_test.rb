# Ractor#send gives its message straight to a thread waiting in Ractor.receive (no queue, no second
# lock of the receiver's record: mrbgems/mnrb-ractor/src/ractor.c), and a ractor's lone thread parks
# without saving its interpreter state (mrbgems/mnrb-thread/src/vm.c: saved only if another thread
# of the ractor runs meanwhile). These tests check what both must keep: a message handed to a
# thread that is interrupted as it wakes is not lost and keeps its place; a ractor whose only thread
# parked then starts threads that run, allocate and collect garbage, its state intact.
# CRuby 3.1 hangs in the first two (observed 2026-11-26, killed after 60 s): mnrb only there.

class RactorReceiveDirectTest < MnTest::Case
  # A receiving thread is interrupted by a sibling (Thread#raise) while it waits in receive (the
  # sibling runs only while it does: one GVL per ractor), often just as a message was handed to it,
  # while the main ractor sends numbered messages one at a time, each answered: each number arrives
  # once, in order (a lost one leaves both sides waiting: mnrb reports that deadlock).
  def test_interrupted_receiver_loses_nothing
    mnrb_only
    count = 2000
    r = Ractor.new(Ractor.current, count) do |main, n|
      got = []
      receiver = Thread.new do
        Thread.handle_interrupt(RuntimeError => :never) do
          loop do
            v = begin
              Thread.handle_interrupt(RuntimeError => :immediate) { Ractor.receive }
            rescue RuntimeError
              next
            end
            break if v == :stop
            got << v
            main.send v
          end
        end
      end
      pokes = 0
      while receiver.alive?
        if receiver.status == "sleep"
          receiver.raise("poke")
          pokes += 1
        end
        Thread.pass
      end
      receiver.join
      [got.size, got == (0...n).to_a, pokes > 0]
    end
    count.times do |i|
      r.send i
      assert_equal i, Ractor.receive
    end
    r.send :stop
    size, in_order, poked = r.take
    assert_equal count, size
    assert_equal true, in_order
    assert_equal true, poked
  end

  # The ractor's lone thread waits in receive (its interpreter state left in place); woken, it starts
  # threads that run, allocate and collect while it waits in join: its own state must come back
  # whole (locals, the block's registers, the frames it returns through).
  def test_lone_thread_then_threads
    mnrb_only
    r = Ractor.new do
      total = 0
      while (n = Ractor.receive) != :stop
        ts = Array.new(3) { |k| Thread.new(k) { |j| Array.new(200) { |i| "#{i * j}" }.size + j } }
        GC.start if n % 7 == 0
        total += ts.sum(&:value) + n
        Ractor.yield total
      end
      total
    end
    expect = 0
    50.times do |n|
      r.send n
      expect += 3 * 200 + 3 + n
      assert_equal expect, r.take
    end
    r.send :stop
    assert_equal expect, r.take
  end

  # A chain of lone ractors passing a growing string: each hop materializes a copy in the
  # receiver's heap right after it resumes.
  def test_chain_of_lone_ractors
    last = Ractor.current
    prev = last
    20.times do
      prev = Ractor.new(prev) do |nx|
        while (v = Ractor.receive) != :stop
          nx.send(v + "x")
        end
        nx.send :stop
      end
    end
    100.times do |i|
      prev.send "m#{i}:"
      assert_equal "m#{i}:" + "x" * 20, Ractor.receive
    end
    prev.send :stop
    assert_equal :stop, Ractor.receive
  end
end
