# Thread::Queue (CRuby 3.1 Queue docs). Queue#pop(timeout:) arrived in CRuby 3.2: those tests
# are mnrb-only (CRuby 3.1 takes the keyword hash as a truthy non_block flag).

class QueueBasicsTest < MnTest::Case
  def setup
    @q = Queue.new
  end

  def test_queue_is_thread_queue
    assert_same Thread::Queue, Queue
  end

  def test_new_queue_is_empty
    assert @q.empty?
    assert_equal 0, @q.size
  end

  def test_pop_returns_pushed_value
    @q.push(1)
    assert_equal 1, @q.pop
  end

  def test_push_returns_self
    assert_same @q, @q.push(1)
  end

  def test_shovel_and_enq_are_aliases_of_push
    assert_same @q, (@q << :a)
    assert_same @q, @q.enq(:b)
    assert_equal [:a, :b], [@q.pop, @q.pop]
  end

  def test_shift_and_deq_are_aliases_of_pop
    @q << 1 << 2
    assert_equal 1, @q.shift
    assert_equal 2, @q.deq
  end

  def test_pop_is_first_in_first_out
    5.times { |i| @q << i }
    assert_equal [0, 1, 2, 3, 4], (1..5).map { @q.pop }
  end

  def test_size_and_length_count_items
    3.times { |i| @q << i }
    assert_equal 3, @q.size
    assert_equal 3, @q.length
    @q.pop
    assert_equal 2, @q.size
  end

  def test_empty_is_false_with_items
    @q << nil
    refute @q.empty?
  end

  def test_nil_can_be_queued
    @q << nil
    assert_nil @q.pop
    assert @q.empty?
  end

  def test_clear_removes_all_items_and_returns_self
    3.times { |i| @q << i }
    assert_same @q, @q.clear
    assert @q.empty?
    assert_equal 0, @q.size
  end

  def test_pop_non_block_on_empty_raises_thread_error
    e = assert_raise(ThreadError) { @q.pop(true) }
    assert_equal "queue empty", e.message
  end

  def test_pop_non_block_returns_an_available_item
    @q << :here
    assert_equal :here, @q.pop(true)
  end

  def test_pop_with_false_blocks_like_pop
    @q << 1
    assert_equal 1, @q.pop(false)
  end

  def test_new_with_array_starts_with_its_items
    q = Queue.new([1, 2, 3])
    assert_equal 3, q.size
    assert_equal [1, 2, 3], [q.pop, q.pop, q.pop]
  end

  def test_new_with_array_copies_the_array
    a = [1]
    q = Queue.new(a)
    a << 2
    assert_equal 1, q.size
  end

  def test_new_with_range_uses_to_a
    assert_equal 3, Queue.new(1..3).size
  end

  def test_new_with_integer_raises_type_error
    e = assert_raise(TypeError) { Queue.new(5) }
    assert_equal "can't convert Integer into Array", e.message
  end

  def test_num_waiting_is_zero_without_waiters
    assert_equal 0, @q.num_waiting
  end

  def test_queue_holds_any_object_by_identity
    obj = Object.new
    @q << obj
    assert_same obj, @q.pop
  end
end

class QueueBlockingTest < MnTest::Case
  def setup
    @q = Queue.new
  end

  def test_pop_blocks_until_a_push
    t = Thread.new { @q.pop }
    wait_until("popper blocked") { t.stop? }
    assert t.alive?
    @q << 42
    assert_equal 42, t.value
  end

  def test_num_waiting_counts_blocked_poppers
    threads = (1..3).map { Thread.new { @q.pop } }
    wait_until("3 poppers waiting") { @q.num_waiting == 3 }
    assert_equal 3, @q.num_waiting
    3.times { |i| @q << i }
    threads.each(&:join)
    assert_equal 0, @q.num_waiting
  end

  def test_each_push_wakes_exactly_one_popper
    threads = (1..3).map { Thread.new { @q.pop } }
    wait_until("3 poppers waiting") { @q.num_waiting == 3 }
    @q << :one
    wait_until("one popper done") { threads.count(&:alive?) == 2 }
    assert_equal 2, @q.num_waiting
    @q << :two << :three
    assert_equal [:one, :three, :two], threads.map(&:value).sort_by(&:to_s)
  end

  def test_items_pushed_by_one_thread_arrive_in_order
    producer = Thread.new { 100.times { |i| @q << i } }
    got = (1..100).map { @q.pop }
    producer.join
    assert_equal (0...100).to_a, got
  end

  def test_clear_does_not_wake_poppers
    t = Thread.new { @q.pop }
    wait_until("popper blocked") { t.stop? }
    @q.clear
    assert_nil t.join(0.02)
    @q << :after_clear
    assert_equal :after_clear, t.value
  end

  def test_blocked_pop_can_be_killed
    t = Thread.new { @q.pop }
    wait_until("popper blocked") { t.stop? }
    t.kill.join
    assert_equal 0, @q.num_waiting
    @q << 1
    assert_equal 1, @q.size
  end
end

class QueueCloseTest < MnTest::Case
  def setup
    @q = Queue.new
  end

  def test_new_queue_is_not_closed
    refute @q.closed?
  end

  def test_close_marks_closed_and_returns_self
    assert_same @q, @q.close
    assert @q.closed?
  end

  def test_close_twice_is_allowed
    @q.close
    assert_same @q, @q.close
  end

  def test_push_to_closed_queue_raises_closed_queue_error
    @q.close
    e = assert_raise(ClosedQueueError) { @q.push(1) }
    assert_equal "queue closed", e.message
  end

  def test_closed_queue_error_is_a_stop_iteration
    assert_equal StopIteration, ClosedQueueError.superclass
  end

  def test_pop_on_closed_empty_queue_returns_nil
    @q.close
    assert_nil @q.pop
  end

  def test_pop_on_closed_queue_returns_remaining_items_first
    @q << 1 << 2
    @q.close
    assert_equal [1, 2, nil], [@q.pop, @q.pop, @q.pop]
  end

  def test_pop_non_block_on_closed_empty_queue_raises_thread_error
    @q.close
    e = assert_raise(ThreadError) { @q.pop(true) }
    assert_equal "queue empty", e.message
  end

  def test_close_wakes_all_blocked_poppers_with_nil
    threads = (1..3).map { Thread.new { @q.pop } }
    wait_until("3 poppers waiting") { @q.num_waiting == 3 }
    @q.close
    assert_equal [nil, nil, nil], threads.map(&:value)
    assert_equal 0, @q.num_waiting
  end

  def test_consumer_loop_ends_when_queue_is_closed
    consumer = Thread.new do
      got = []
      while (x = @q.pop)
        got << x
      end
      got
    end
    3.times { |i| @q << i }
    @q.close
    assert_equal [0, 1, 2], consumer.value
  end
end

class QueuePopTimeoutTest < MnTest::Case
  def setup
    mnrb_only # Queue#pop(timeout:) is CRuby 3.2+
    @q = Queue.new
  end

  def test_pop_with_timeout_returns_nil_when_nothing_arrives
    assert_nil @q.pop(timeout: 0.01)
  end

  def test_pop_with_timeout_waits_at_least_the_timeout
    t0 = MnTest.now
    @q.pop(timeout: 0.05)
    assert MnTest.now - t0 >= 0.05, "pop(timeout: 0.05) returned too early"
  end

  def test_pop_with_zero_timeout_returns_immediately
    assert_nil @q.pop(timeout: 0)
  end

  def test_pop_with_timeout_returns_an_available_item
    @q << :ready
    assert_equal :ready, @q.pop(timeout: 0.01)
  end

  def test_pop_with_timeout_returns_an_item_pushed_while_waiting
    t = Thread.new { @q.pop(timeout: 30) }
    wait_until("popper blocked") { t.stop? }
    @q << :late
    assert_equal :late, t.value
  end

  def test_pop_non_block_with_timeout_raises_argument_error
    e = assert_raise(ArgumentError) { @q.pop(true, timeout: 1) }
    assert_equal "can't set a timeout if non_block is enabled", e.message
  end
end
