# Thread#priority / #priority= (CRuby 3.1 Thread docs): only a scheduling hint, but the value
# is stored, inherited by new threads, and clamped to -3..3 as in CRuby.

class ThreadPriorityTest < MnTest::Case
  def teardown
    Thread.current.priority = 0
  end

  def test_default_priority_is_zero
    assert_equal 0, Thread.current.priority
    assert_equal 0, Thread.new { Thread.current.priority }.value
  end

  def test_priority_assignment_is_read_back
    t = Thread.new { Thread.stop }
    t.priority = 2
    assert_equal 2, t.priority
    wait_until("thread stopped") { t.stop? }
    t.run
    t.join
  end

  def test_negative_priority_is_accepted
    Thread.current.priority = -2
    assert_equal(-2, Thread.current.priority)
  end

  def test_new_thread_inherits_the_creators_priority
    Thread.current.priority = 1
    assert_equal 1, Thread.new { Thread.current.priority }.value
  end

  def test_priority_is_clamped_to_three
    Thread.current.priority = 100
    assert_equal 3, Thread.current.priority
  end

  def test_priority_is_clamped_to_minus_three
    Thread.current.priority = -100
    assert_equal(-3, Thread.current.priority)
  end

  def test_priority_of_a_dead_thread_can_be_read
    t = Thread.new {}
    t.join
    assert_equal 0, t.priority
  end

  def test_non_integer_priority_raises_type_error
    e = assert_raise(TypeError) { Thread.current.priority = "high" }
    assert_equal "no implicit conversion of String into Integer", e.message
  end

  def test_threads_with_different_priorities_all_complete
    threads = (-3..3).map { |p| Thread.new { Thread.current.priority = p; 100.times { Thread.pass }; p } }
    assert_equal (-3..3).to_a, threads.map(&:value)
  end
end
