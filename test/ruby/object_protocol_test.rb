# Allocation, copying, names and argument errors of the thread classes, as CRuby 3.1 has them.

class ThreadClassProtocolTest < MnTest::Case
  def test_classes_live_under_thread_with_top_level_aliases
    assert_equal "Thread::Mutex", Mutex.name
    assert_equal "Thread::Queue", Queue.name
    assert_equal "Thread::SizedQueue", SizedQueue.name
    assert_equal "Thread::ConditionVariable", ConditionVariable.name
    assert_same Thread::Mutex, Mutex
  end

  def test_thread_cannot_be_allocated_or_copied
    e = assert_raise(TypeError) { Thread.allocate }
    assert_equal "allocator undefined for Thread", e.message
    e = assert_raise(TypeError) { Thread.current.dup }
    assert_equal "allocator undefined for Thread", e.message
  end

  def test_mutex_copy_is_a_new_unlocked_mutex
    m = Mutex.new
    m.lock
    c = m.dup
    refute c.locked?
    assert c.try_lock
    m.unlock
  end

  def test_allocated_mutex_works
    m = Mutex.allocate
    m.lock
    assert m.owned?
    m.unlock
  end

  def test_condition_variable_wait_on_a_non_mutex_raises
    e = assert_raise(TypeError) { ConditionVariable.new.wait(1) }
    assert_equal "can't convert NilClass into time interval", e.message
  end

  def test_thread_raise_with_a_non_exception_raises_type_error
    t = Thread.new { sleep }
    e = assert_raise(TypeError) { t.raise(1) }
    assert_equal "exception class/object expected", e.message
    t.kill.join
  end

  def test_sized_queue_size_must_be_an_integer
    e = assert_raise(TypeError) { SizedQueue.new("x") }
    assert_equal "no implicit conversion of String into Integer", e.message
  end

  def test_join_timeout_must_be_a_number
    t = Thread.new { 1 }
    e = assert_raise(TypeError) { t.join("x") }
    assert_equal "no implicit conversion to float from string", e.message
    t.join
  end

  def test_pop_with_two_arguments_is_an_argument_error
    e = assert_raise(ArgumentError) { Queue.new.pop(1, 2) }
    assert_equal "wrong number of arguments (given 2, expected 0..1)", e.message
  end

  def test_inspect_shows_name_location_and_status
    t = Thread.new { Thread.stop }
    wait_until("thread stopped") { t.stop? }
    t.name = "worker"
    s = t.inspect
    assert_equal "#<Thread:0x", s[0, 11]
    assert_include s, "@worker "
    assert_include s, "object_protocol_test.rb:"
    assert_equal " sleep_forever>", s[-15, 15]     # Thread.stop can only end through another thread
    t.wakeup
    t.join
    assert_equal " dead>", t.inspect[-6, 6]
  end

  def test_inspect_of_a_plain_sleep_says_sleep
    t = Thread.new { sleep }
    wait_until("thread asleep") { t.stop? }
    assert_equal " sleep>", t.inspect[-7, 7]
    t.wakeup
    t.join
  end
end
