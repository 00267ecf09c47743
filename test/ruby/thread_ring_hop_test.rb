# A thread ring's hop (Queue#push to a thread parked in Queue#pop, then Queue#pop on an empty
# queue) has a path of its own in mnrb (core/src/sched.c: park_vm_ring; queue.c: pop_cont): the
# woken thread runs straight from the pusher's deferred wake-up, with no call into the core for
# its resume, and takes its item without looking at its wait list. That path is only for a pop
# with no deadline while no GVL instrumentation listens; everything else (a pop with a timeout,
# GVLTools enabled, an interrupt that came with the item) takes the general one. These tests run
# rings through each case and check every value, every event count and every item.

begin
  require "gvltools" if !Object.const_defined?(:GVLTools) && respond_to?(:require, true)
rescue LoadError
  nil
end

class ThreadRingHopTest < MnTest::Case
  # n threads in a ring, each popping its inbox (with a timeout when given) and pushing v - 1 to
  # the next; the token goes `laps` times around. Returns what each thread saw, in order.
  def ring(n, laps, timeout = nil)
    queues = Array.new(n) { Queue.new }
    done = Queue.new
    seen = Array.new(n) { [] }
    threads = Array.new(n) do |i|
      inbox = queues[i]
      outbox = queues[(i + 1) % n]
      Thread.new do
        while (v = timeout ? inbox.pop(timeout: timeout) : inbox.pop) >= 0
          seen[i] << v
          if v == 0 then done << true else outbox << v - 1 end
        end
      end
    end
    queues[0] << n * laps - 1
    assert_equal true, done.pop
    queues.each { |q| q << -1 }
    threads.each(&:join)
    seen
  end

  def check_ring(n, laps, seen)
    total = n * laps
    n.times do |i|
      assert_equal (0...laps).map { |lap| total - 1 - lap * n - i }, seen[i], "thread #{i}"
    end
  end

  def test_a_ring_hands_every_value_on_in_order
    check_ring(50, 40, ring(50, 40))
  end

  # A deadline makes every park a timed one: the general path (a timer armed and dropped per hop).
  def test_a_ring_of_pops_with_a_timeout_hands_every_value_on
    skip "Queue#pop(timeout:) is Ruby 3.2's" if RUBY_VERSION < "3.2"
    check_ring(20, 20, ring(20, 20, 30))
  end

  # With GVL instrumentation on, every hop of the ring is a SUSPENDED and a RESUMED event of its
  # threads: the hook-less path must not be taken (it reports neither).
  def test_every_hop_is_an_acquisition_while_gvl_stats_listen
    mnrb_only   # GVLTools::Stats is mnrb's addition to gvltools
    skip "the gvltools gem is not available" unless Object.const_defined?(:GVLTools)
    GVLTools::Stats.enable
    GVLTools::Stats.reset
    n, laps = 20, 10
    before = GVLTools::Stats.ractor[:acquisitions]
    check_ring(n, laps, ring(n, laps))
    after = GVLTools::Stats.ractor[:acquisitions]
    assert after - before >= n * laps, "#{after - before} acquisitions for #{n * laps} hops"
  ensure
    if Object.const_defined?(:GVLTools) && GVLTools.const_defined?(:Stats)
      GVLTools::Stats.disable
      GVLTools::Stats.reset
    end
  end

  # Thread#raise into a popper whose item was handed to it before it ran: the item goes back to
  # the front of its queue, and the next pop gets it (the continuation's general case).
  def test_an_interrupt_that_comes_with_the_item_puts_it_back
    20.times do
      q = Queue.new
      t = Thread.new { Thread.current.report_on_exception = false; q.pop }
      Thread.pass until t.stop?
      q << :first
      q << :second
      t.raise(ArgumentError, "stop")
      assert_raise(ArgumentError) { t.join }
      assert_equal [:first, :second], [q.pop, q.pop]
    end
  end

  # Threads created and finished by the thousand, each parking once at VM level: the ring's path
  # leaves nothing behind that keeps the next ones from running (every value arrives).
  def test_rings_of_fresh_threads_one_after_another
    10.times { check_ring(100, 2, ring(100, 2)) }
  end
end
