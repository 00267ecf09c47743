# Thread#backtrace and #backtrace_locations (CRuby 3.1): where a thread is, innermost frame first;
# nil for a thread that has ended.

class ThreadBacktraceTest < MnTest::Case
  def parked_in_a_method
    q = Queue.new
    t = Thread.new { wait_here(q) }
    wait_until("the thread to wait") { t.status == "sleep" }
    [t, q]
  end

  def wait_here(q)
    q.pop
  end

  def test_a_waiting_threads_backtrace_names_its_frames
    t, q = parked_in_a_method
    bt = t.backtrace
    assert_kind_of Array, bt
    assert bt[0].end_with?("`pop'"), bt.inspect
    assert bt.any? { |l| l.include?("`wait_here'") }, bt.inspect
    assert bt.all? { |l| l.start_with?(__FILE__ + ":") || l.start_with?("<internal") }, bt.inspect
    q << 1
    t.join
  end

  def test_the_current_threads_backtrace_starts_at_the_call
    bt = Thread.current.backtrace
    assert bt[0].end_with?("`backtrace'"), bt.inspect
    assert bt.any? { |l| l.include?("`test_the_current_threads_backtrace_starts_at_the_call'") }, bt.inspect
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
    assert_equal "pop", locs[0].label
    here = locs.find { |l| l.label == "wait_here" }
    assert here
    assert_equal __FILE__, here.path
    assert_equal 13, here.lineno       # q.pop, in wait_here
    assert_equal t.backtrace, locs.map(&:to_s)
    q << 1
    t.join
  end
end
