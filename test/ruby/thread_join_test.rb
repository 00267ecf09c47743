# Thread#join and Thread#value (CRuby 3.1 Thread docs).

class ThreadJoinTest < MnTest::Case
  def quiet_failing_thread(exc)
    Thread.new do
      Thread.current.report_on_exception = false
      raise exc
    end
  end

  def test_join_returns_the_thread
    t = Thread.new { 1 }
    assert_same t, t.join
  end

  def test_join_waits_for_the_thread_to_finish
    q = Queue.new
    t = Thread.new { q.pop; :done }
    wait_until("thread blocked on pop") { t.stop? }
    assert t.alive?
    q << :go
    t.join
    refute t.alive?
    assert_equal :done, t.value
  end

  def test_join_with_timeout_returns_nil_when_thread_is_still_running
    q = Queue.new
    t = Thread.new { q.pop }
    assert_nil t.join(0.01)
    assert t.alive?
    q << 1
    assert_same t, t.join
  end

  def test_join_with_zero_timeout_returns_nil_for_a_blocked_thread
    q = Queue.new
    t = Thread.new { q.pop }
    assert_nil t.join(0)
    q << 1
    t.join
  end

  def test_join_with_timeout_waits_at_least_the_timeout
    q = Queue.new
    t = Thread.new { q.pop }
    t0 = MnTest.now
    t.join(0.05)
    assert MnTest.now - t0 >= 0.05, "join(0.05) returned too early"
    q << 1
    t.join
  end

  def test_join_with_timeout_returns_the_thread_when_it_finishes_in_time
    t = Thread.new { :quick }
    assert_same t, t.join(10)
  end

  def test_join_with_nil_timeout_waits_forever
    t = Thread.new { Thread.pass; :ok }
    assert_same t, t.join(nil)
  end

  def test_join_reraises_the_exception_that_killed_the_thread
    t = quiet_failing_thread(ArgumentError.new("bad argument"))
    e = assert_raise(ArgumentError) { t.join }
    assert_equal "bad argument", e.message
  end

  def test_join_reraises_the_same_exception_every_time
    t = quiet_failing_thread(IOError.new("io"))
    e1 = assert_raise(IOError) { t.join }
    e2 = assert_raise(IOError) { t.join }
    assert_same e1, e2
  end

  def test_value_returns_the_block_result
    assert_equal [1, 2], Thread.new { [1, 2] }.value
  end

  def test_value_can_be_read_repeatedly
    t = Thread.new { Object.new }
    assert_same t.value, t.value
  end

  def test_value_reraises_the_exception_that_killed_the_thread
    t = quiet_failing_thread(TypeError.new("wrong type"))
    e = assert_raise(TypeError) { t.value }
    assert_equal "wrong type", e.message
  end

  def test_join_self_raises_thread_error
    e = assert_raise(ThreadError) { Thread.current.join }
    assert_equal "Target thread must not be current thread", e.message
  end

  def test_join_main_from_main_raises_thread_error
    e = assert_raise(ThreadError) { Thread.main.join }
    assert_equal "Target thread must not be current thread", e.message
  end

  def test_join_main_from_another_thread_raises_thread_error
    t = Thread.new do
      begin
        Thread.main.join
        :joined
      rescue ThreadError => e
        e.message
      end
    end
    assert_equal "Target thread must not be main thread", t.value
  end

  def test_join_on_a_killed_thread_returns_the_thread
    q = Queue.new
    t = Thread.new { q.pop }
    wait_until("thread blocked on pop") { t.stop? }
    t.kill
    assert_same t, t.join
  end

  def test_value_of_a_killed_thread_is_nil
    t = Thread.new { Thread.stop; :unreachable }
    wait_until("thread stopped") { t.stop? }
    t.kill
    assert_nil t.value
  end

  def test_join_on_a_finished_thread_returns_immediately
    t = Thread.new { 1 }
    t.join
    assert_same t, t.join(0)
  end

  def test_many_threads_can_join_the_same_thread
    q = Queue.new
    target = Thread.new { q.pop }
    joiners = (1..5).map { Thread.new { target.value } }
    wait_until("joiners blocked") { joiners.all?(&:stop?) }
    q << :shared
    assert_equal [:shared] * 5, joiners.map(&:value)
  end
end
