# Thread::SizedQueue (CRuby 3.1 SizedQueue docs): a Queue with a capacity; push blocks when full.

class SizedQueueBasicsTest < MnTest::Case
  def setup
    @q = SizedQueue.new(2)
  end

  def test_sized_queue_is_thread_sized_queue
    assert_same Thread::SizedQueue, SizedQueue
  end

  def test_sized_queue_is_a_queue
    assert_kind_of Queue, @q
  end

  def test_max_is_the_capacity_given_to_new
    assert_equal 2, @q.max
  end

  def test_new_sized_queue_is_empty
    assert @q.empty?
    assert_equal 0, @q.size
  end

  def test_push_then_pop_in_fifo_order
    @q << 1 << 2
    assert_equal [1, 2], [@q.pop, @q.pop]
  end

  def test_push_returns_self
    assert_same @q, @q.push(:x)
  end

  def test_enq_and_shovel_are_aliases_of_push
    @q.enq(:a)
    @q << :b
    assert_equal 2, @q.length
  end

  def test_new_with_zero_raises_argument_error
    e = assert_raise(ArgumentError) { SizedQueue.new(0) }
    assert_equal "queue size must be positive", e.message
  end

  def test_new_with_negative_raises_argument_error
    e = assert_raise(ArgumentError) { SizedQueue.new(-1) }
    assert_equal "queue size must be positive", e.message
  end

  def test_new_without_max_raises_argument_error
    assert_raise(ArgumentError) { SizedQueue.new }
  end

  def test_max_assignment_changes_capacity
    @q.max = 5
    assert_equal 5, @q.max
  end

  def test_max_assignment_to_zero_raises_argument_error
    e = assert_raise(ArgumentError) { @q.max = 0 }
    assert_equal "queue size must be positive", e.message
    assert_equal 2, @q.max
  end

  def test_push_non_block_on_full_queue_raises_thread_error
    @q << 1 << 2
    e = assert_raise(ThreadError) { @q.push(3, true) }
    assert_equal "queue full", e.message
    assert_equal 2, @q.size
  end

  def test_push_non_block_with_room_succeeds
    @q.push(1, true)
    assert_equal 1, @q.size
  end

  def test_pop_non_block_on_empty_raises_thread_error
    e = assert_raise(ThreadError) { @q.pop(true) }
    assert_equal "queue empty", e.message
  end

  def test_clear_empties_the_queue
    @q << 1 << 2
    @q.clear
    assert @q.empty?
  end
end

class SizedQueueBlockingTest < MnTest::Case
  def setup
    @q = SizedQueue.new(1)
    @q << :first
  end

  def blocked_pusher(item)
    t = Thread.new { @q.push(item); :pushed }
    wait_until("pusher blocked") { t.stop? }
    t
  end

  def test_push_blocks_when_full
    t = blocked_pusher(:second)
    assert t.alive?
    assert_equal 1, @q.size
    @q.pop
    t.join
  end

  def test_blocked_push_resumes_when_an_item_is_popped
    t = blocked_pusher(:second)
    assert_equal :first, @q.pop
    assert_equal :pushed, t.value
    assert_equal :second, @q.pop
  end

  def test_num_waiting_counts_blocked_pushers
    t = blocked_pusher(:second)
    assert_equal 1, @q.num_waiting
    @q.pop
    t.join
    assert_equal 0, @q.num_waiting
  end

  def test_num_waiting_counts_blocked_poppers
    @q.pop
    t = Thread.new { @q.pop }
    wait_until("popper blocked") { @q.num_waiting == 1 }
    @q << :x
    assert_equal :x, t.value
  end

  def test_raising_max_wakes_blocked_pushers
    t = blocked_pusher(:second)
    @q.max = 2
    assert_equal :pushed, t.value
    assert_equal 2, @q.size
  end

  def test_clear_wakes_blocked_pushers
    t = blocked_pusher(:second)
    @q.clear
    assert_equal :pushed, t.value
    assert_equal [:second], [@q.pop]
  end

  def test_close_wakes_blocked_pushers_with_closed_queue_error
    t = Thread.new do
      begin
        @q.push(:second)
        :pushed
      rescue ClosedQueueError => e
        e.message
      end
    end
    wait_until("pusher blocked") { t.stop? }
    @q.close
    assert_equal "queue closed", t.value
  end

  def test_push_to_closed_queue_raises_closed_queue_error
    @q.close
    e = assert_raise(ClosedQueueError) { @q.push(1) }
    assert_equal "queue closed", e.message
  end

  def test_push_non_block_to_closed_queue_with_room_raises_closed_queue_error
    @q.pop
    @q.close
    e = assert_raise(ClosedQueueError) { @q.push(1, true) }
    assert_equal "queue closed", e.message
  end

  # CRuby 3.1 checks "full" before "closed" on the non-blocking path.
  def test_push_non_block_to_closed_full_queue_raises_queue_full
    @q.close
    e = assert_raise(ThreadError) { @q.push(1, true) }
    assert_equal "queue full", e.message
  end

  def test_pop_on_closed_queue_drains_then_returns_nil
    @q.close
    assert_equal :first, @q.pop
    assert_nil @q.pop
  end

  def test_many_pushers_all_complete_as_items_are_popped
    pushers = (1..5).map { |i| Thread.new { @q.push(i) } }
    got = (1..6).map { @q.pop }
    pushers.each(&:join)
    assert_equal [1, 2, 3, 4, 5, :first], got.sort_by(&:to_s)
    assert_equal :first, got.first
  end

  # Pushers waiting on a full queue must all get in while a popper drains it, even when their items
  # are handed straight to the waiting popper (no pop ever takes from a full queue again).
  def test_waiting_pushers_all_get_in_while_a_popper_drains_the_queue
    q = SizedQueue.new(1)
    q << :x
    pushers = 3.times.map { |i| Thread.new { q.push(i) } }
    wait_until("pushers waiting") { q.num_waiting == 3 }
    got = 4.times.map { q.pop }
    pushers.each(&:join)
    assert_equal [0, 1, 2, :x], got.sort_by(&:to_s)
  end

  def test_size_never_exceeds_max
    max_seen = 0
    producer = Thread.new { 50.times { |i| @q << i } }
    51.times do
      max_seen = @q.size if @q.size > max_seen
      @q.pop
      Thread.pass
    end
    producer.join
    assert max_seen <= 1, "size reached #{max_seen} with max 1"
  end
end

class SizedQueuePushTimeoutTest < MnTest::Case
  def setup
    mnrb_only # SizedQueue#push(obj, timeout:) is CRuby 3.2+
    @q = SizedQueue.new(1)
    @q << :first
  end

  def test_push_with_timeout_returns_nil_when_still_full
    assert_nil @q.push(:second, timeout: 0.01)
    assert_equal 1, @q.size
  end

  def test_push_with_timeout_returns_self_when_room_appears
    t = Thread.new { @q.push(:second, timeout: 30) }
    wait_until("pusher blocked") { t.stop? }
    @q.pop
    assert_same @q, t.value
  end

  def test_pop_with_timeout_on_empty_sized_queue_returns_nil
    @q.pop
    assert_nil @q.pop(timeout: 0.01)
  end
end
