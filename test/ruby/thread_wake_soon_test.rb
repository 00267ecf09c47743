# A push that hands its item to a thread waiting in Queue#pop (parked at the VM level, no
# timeout) does not make that thread ready at once: the scheduler does it at the pusher's next
# scheduler call, under the lock that call takes anyway (core/src/sched.c: mn_unpark_soon). These
# tests check that the popper is never forgotten or woken twice whatever the pusher does next:
# computes without a pause (the timeslice tick still preempts it), waits itself (no false
# deadlock), passes, raises into or wakes the popper, pushes again, sleeps, ends.

class ThreadWakeSoonTest < MnTest::Case
  def wait_until(what)
    2000.times { return if yield; Thread.pass; sleep 0.001 }
    flunk "timed out waiting for #{what}"
  end

  # A thread parked in Queue#pop, called straight from its block.
  def parked_popper(q, out)
    t = Thread.new { out << q.pop }
    wait_until("the popper to park") { t.status == "sleep" }
    t
  end

  def test_a_computing_pusher_is_preempted_for_the_popper
    q = Queue.new
    got = []
    t = parked_popper(q, got)
    q << :item
    n = 0
    n += 1 while got.empty?        # no pause: only a timeslice end lets the popper run
    assert_equal [:item], got
    t.join
  end

  def test_a_thread_that_waits_right_after_is_not_a_deadlock
    q = Queue.new
    back = Queue.new
    t = Thread.new { back << q.pop * 2 }
    wait_until("the popper to park") { t.status == "sleep" }
    q << 21
    assert_equal 42, back.pop      # main waits forever: only the woken popper can answer
    t.join
  end

  def test_a_ring_thread_pushes_then_waits_without_a_deadlock
    a = Queue.new
    b = Queue.new
    done = Queue.new
    pong = Thread.new { 1000.times { b << a.pop + 1 } }
    ping = Thread.new do
      v = 0
      1000.times { a << v; v = b.pop }
      done << v
    end
    assert_equal 1000, done.pop
    [pong, ping].each(&:join)
  end

  def test_pass_after_the_push_lets_the_popper_run
    q = Queue.new
    got = []
    t = parked_popper(q, got)
    q << 1
    Thread.pass while got.empty?
    assert_equal [1], got
    t.join
  end

  def test_raise_into_the_popper_right_after_the_push_puts_the_item_back
    q = Queue.new
    t = Thread.new { q.pop }
    wait_until("the popper to park") { t.status == "sleep" }
    q << :item
    t.raise(ArgumentError, "stop")
    e = assert_raise(ArgumentError) { t.join }
    assert_equal "stop", e.message
    assert_equal 1, q.size
    assert_equal :item, q.pop
  end

  def test_wakeup_right_after_the_push_wakes_once
    q = Queue.new
    got = []
    t = Thread.new { got << q.pop; got << q.pop }
    wait_until("the popper to park") { t.status == "sleep" }
    q << 1
    t.wakeup                       # a spurious wake-up: the thread keeps waiting for its 2nd item
    wait_until("the popper to take its item and park again") { got == [1] && t.status == "sleep" }
    q << 2
    t.join
    assert_equal [1, 2], got
  end

  def test_two_pushes_to_two_poppers_wake_both
    q1 = Queue.new
    q2 = Queue.new
    order = Queue.new
    t1 = Thread.new { q1.pop; order << 1 }
    t2 = Thread.new { q2.pop; order << 2 }
    wait_until("both to park") { t1.status == "sleep" && t2.status == "sleep" }
    q1 << :a
    q2 << :b                       # the first wake-up is done before the second is recorded
    assert_equal [1, 2], [order.pop, order.pop].sort
    [t1, t2].each(&:join)
  end

  def test_the_pusher_ends_right_after_the_push
    q = Queue.new
    got = []
    t = parked_popper(q, got)
    Thread.new { q << :last }.join
    t.join
    assert_equal [:last], got
  end

  def test_the_pusher_sleeps_right_after_the_push
    q = Queue.new
    got = []
    t = parked_popper(q, got)
    Thread.new do
      q << :x
      sleep 0.001 while got.empty?
    end.join
    t.join
    assert_equal [:x], got
  end

  def test_a_thread_started_after_the_push_and_the_popper_both_run
    q = Queue.new
    order = Queue.new
    t = Thread.new { q.pop; order << :popper }
    wait_until("the popper to park") { t.status == "sleep" }
    u = nil
    Thread.new do
      q << 1
      u = Thread.new { order << :new }
      sleep 0.001 until order.size >= 2
    end.join
    u.join
    t.join
    assert_equal [:new, :popper], Array.new(2) { order.pop }.sort
  end
end
