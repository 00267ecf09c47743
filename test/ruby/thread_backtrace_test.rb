# Thread#backtrace and #backtrace_locations (CRuby 3.1): where a thread is, innermost frame first;
# nil for a thread that has ended. Labels as CRuby 3.4 writes them ('Thread::Queue#pop',
# 'block in Foo#bar'; 3.1: `pop', `block in bar'): mnrb follows 3.4, and so do these tests on a
# 3.4 CRuby; on an older one they expect its shape.

class ThreadBacktraceTest < MnTest::Case
  LABELS_34 = Object.const_defined?(:MNRB_VERSION) || RUBY_VERSION >= "3.4"

  # how the running Ruby quotes a frame's label: 3.4's (owner, 'quotes') or 3.1's (`quotes')
  def quoted(label_34, label_31)
    LABELS_34 ? "'#{label_34}'" : "`#{label_31}'"
  end

  def parked_in_a_method
    q = Queue.new
    t = Thread.new { wait_here(q) }
    wait_until("the thread to wait") { t.status == "sleep" }
    [t, q]
  end

  WAIT_HERE_LINE = __LINE__ + 2
  def wait_here(q)
    q.pop
  end

  def test_a_waiting_threads_backtrace_names_its_frames
    t, q = parked_in_a_method
    bt = t.backtrace
    assert_kind_of Array, bt
    assert bt[0].end_with?(quoted("Thread::Queue#pop", "pop")), bt.inspect
    assert bt.any? { |l| l.end_with?(quoted("ThreadBacktraceTest#wait_here", "wait_here")) }, bt.inspect
    assert bt.any? { |l| l.end_with?(quoted("block in ThreadBacktraceTest#parked_in_a_method", "block in parked_in_a_method")) }, bt.inspect
    assert bt.all? { |l| l.start_with?(__FILE__ + ":") || l.start_with?("<internal") }, bt.inspect
    q << 1
    t.join
  end

  def test_the_current_threads_backtrace_starts_at_the_call
    bt = Thread.current.backtrace
    assert bt[0].end_with?(quoted("Thread#backtrace", "backtrace")), bt.inspect
    assert bt.any? { |l| l.include?(quoted("ThreadBacktraceTest#test_the_current_threads_backtrace_starts_at_the_call", "test_the_current_threads_backtrace_starts_at_the_call")) }, bt.inspect
  end

  def test_a_dead_thread_has_no_backtrace
    t = Thread.new { }
    t.join
    assert_nil t.backtrace
    assert_nil t.backtrace_locations
  end

  def test_backtrace_locations_give_path_lineno_and_label
    t, q = parked_in_a_method
    locs = t.backtrace_locations
    assert_equal(LABELS_34 ? "Thread::Queue#pop" : "pop", locs[0].label)
    assert_equal "pop", locs[0].base_label
    here = locs.find { |l| l.base_label == "wait_here" }
    assert_equal(LABELS_34 ? "ThreadBacktraceTest#wait_here" : "wait_here", here.label)
    block = locs.find { |l| l.label.start_with?("block in ") }
    assert_equal "parked_in_a_method", block.base_label
    assert here
    assert_equal __FILE__, here.path
    assert_equal WAIT_HERE_LINE, here.lineno       # q.pop, in wait_here
    assert_equal t.backtrace, locs.map(&:to_s)
    q << 1
    t.join
  end
end
