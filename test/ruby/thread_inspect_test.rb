# Thread#inspect / #to_s and Thread#native_thread_id. inspect is CRuby's (3.1 and 3.4 alike):
# "#<Thread:0x<address>[@name] <file>:<line of the block> <status>>", no location for the main
# thread. native_thread_id (CRuby 3.1+): the OS thread id (gettid) of the native thread running
# the Ruby thread, nil once the thread is dead. Under M:N scheduling (mnrb; CRuby 3.3's M:N
# threads) a Ruby thread may run on different native threads over its life, so the id is where it
# runs now, and a thread that is not running (waiting, or ready but not scheduled) has none: nil.

class ThreadInspectTest < MnTest::Case
  def test_inspect_shows_address_location_and_status
    q = Queue.new
    line = __LINE__ + 1
    t = Thread.new { q.pop }
    wait_until("the thread to wait") { t.status == "sleep" }
    assert_match_re(/\A#<Thread:0x\h+ #{Regexp.escape(__FILE__)}:#{line} sleep(_forever)?>\z/, t.inspect)
    q << 1
    t.join
  end

  def test_inspect_of_a_named_dead_thread
    line = __LINE__ + 1
    t = Thread.new { }
    t.name = "worker"
    t.join
    assert_match_re(/\A#<Thread:0x\h+@worker #{Regexp.escape(__FILE__)}:#{line} dead>\z/, t.inspect)
  end

  def test_the_main_thread_has_no_location
    assert_match_re(/\A#<Thread:0x\h+ run>\z/, Thread.main.inspect)
  end

  def test_to_s_is_inspect
    t = Thread.new { }
    t.join
    assert_equal t.inspect, t.to_s
  end

  def test_the_current_threads_native_id_is_an_os_thread_of_this_process
    id = Thread.current.native_thread_id
    assert_kind_of Integer, id
    assert File.exist?("/proc/self/task/#{id}"), "no task #{id}"
  end

  def test_a_new_threads_native_id_is_an_os_thread_while_it_runs
    id, exists = Thread.new { i = Thread.current.native_thread_id; [i, File.exist?("/proc/self/task/#{i}")] }.value
    assert_kind_of Integer, id
    assert exists, "no task #{id}"
  end

  def test_a_dead_thread_has_no_native_id
    t = Thread.new { }
    t.join
    assert_nil t.native_thread_id
  end

  def test_a_waiting_thread_has_no_native_thread_under_m_n
    mnrb_only   # CRuby 3.1 runs each thread on its own native thread: an Integer here
    q = Queue.new
    t = Thread.new { q.pop }
    wait_until("the thread to wait") { t.status == "sleep" }
    assert_nil t.native_thread_id
    q << 1
    t.join
  end

  def assert_match_re(re, str)
    assert re =~ str, "#{re.inspect} does not match #{str.inspect}"
  end
end
