# Kernel#exit, #exit! and #abort in a thread other than the main one end the process with their
# status (CRuby: the thread's SystemExit is raised in the main thread, whose ensure clauses and the
# at_exit handlers then run once), whatever the main thread is doing meanwhile.

class ThreadExitTest < MnTest::Case
  # Runs `code` in a child interpreter; [status, stdout, stderr]. A child still alive after
  # `timeout` seconds is killed (its status is then the signal's).
  def run_child(code, timeout = 30)
    out_r, out_w = IO.pipe
    err_r, err_w = IO.pipe
    pid = spawn("/proc/self/exe", "-e", code, out: out_w, err: err_w)
    out_w.close
    err_w.close
    watchdog = Thread.new { sleep timeout; Process.kill(:KILL, pid) }
    out = out_r.read
    err = err_r.read
    _, st = Process.wait2(pid)
    watchdog.kill
    out_r.close
    err_r.close
    [st.exitstatus || "killed by #{st.termsig}", out, err]
  end

  def test_exit_in_a_thread_ends_a_sleeping_main_thread_with_its_status
    st, out, = run_child('at_exit { puts "at_exit" }; Thread.new { exit 3 }; begin; sleep; ensure; puts "ensure"; end')
    assert_equal [3, "ensure\nat_exit\n"], [st, out]
  end

  def test_exit_in_a_thread_ends_a_main_thread_joined_on_another
    st, out, = run_child('at_exit { puts "at_exit" }; t = Thread.new { sleep }; Thread.new { exit 4 }; t.join')
    assert_equal [4, "at_exit\n"], [st, out]
  end

  def test_exit_in_a_thread_ends_a_main_thread_waiting_on_a_queue
    st, out, err = run_child('at_exit { puts "at_exit" }; q = Queue.new; Thread.new { exit 6 }; q.pop')
    assert_equal [6, "at_exit\n", ""], [st, out, err]
  end

  def test_exit_in_a_thread_ends_a_computing_main_thread
    st, = run_child('Thread.new { exit 7 }; loop { }')
    assert_equal 7, st
  end

  def test_exit_in_a_joined_thread_ends_the_process
    st, out, = run_child('at_exit { puts "at_exit" }; Thread.new { exit 3 }.join; puts "after"')
    assert_equal [3, "at_exit\n"], [st, out]
  end

  def test_abort_in_a_thread_prints_its_message_and_ends_the_process_with_1
    st, out, err = run_child('Thread.new { abort "bye" }; sleep')
    assert_equal [1, "", "bye\n"], [st, out, err]
  end

  def test_exit_bang_in_a_thread_skips_at_exit
    st, out, = run_child('at_exit { puts "at_exit" }; Thread.new { exit! 5 }; sleep')
    assert_equal [5, ""], [st, out]
  end

  def test_the_main_thread_may_rescue_a_threads_exit
    st, out, = run_child('begin; Thread.new { exit 3 }; sleep; rescue SystemExit => e; puts e.status; end; puts "on"')
    assert_equal [0, "3\non\n"], [st, out]
  end

  RESCUER = 'm = Mutex.new; cv = ConditionVariable.new; ' \
            't = Thread.new { m.synchronize { loop { begin; cv.wait(m); rescue Exception; end } } }; ' \
            'Thread.pass until t.stop?; '

  # The main thread's end kills the other threads; a kill is no exception, nothing rescues it.
  def test_a_thread_rescuing_everything_around_a_wait_does_not_outlive_the_main_thread
    st, out, err = run_child(RESCUER + 'puts "end"')
    assert_equal [0, "end\n", ""], [st, out, err]
  end

  def test_sigterm_ends_a_process_whose_thread_rescues_everything_around_a_wait
    st, out, err = run_child(RESCUER + 'Process.kill(:TERM, $$); sleep')
    assert_equal ["killed by 15", "", ""], [st, out, err]
  end
end
