# System calls that can wait indefinitely (open of a FIFO, flock, waitpid) run without the GVL, as in
# CRuby: the other threads go on, Thread#raise and Thread#kill interrupt them, and SIGTERM ends a
# process stuck in one.

class IOBlockingCallsTest < MnTest::Case
  def setup
    @dir = "/tmp/mnrb-io-blocking-#{Process.pid}-#{rand(1_000_000)}"
    Dir.mkdir(@dir)
    @fifo = "#{@dir}/fifo"
    system("mkfifo", @fifo) or skip "mkfifo failed"
  end

  def teardown
    Dir.children(@dir).each { |f| File.delete("#{@dir}/#{f}") }
    Dir.rmdir(@dir)
  end

  # A thread parked in a system call (CRuby and mnrb both report "sleep").
  def wait_blocked(t)
    wait_until("the thread to block") { t.status == "sleep" || !t.alive? }
  end

  def test_another_thread_runs_while_one_waits_in_open_of_a_fifo
    reader = Thread.new { File.open(@fifo, "r") { |f| f.read } }
    wait_blocked(reader)
    # This thread runs: it opens the writing end, which lets the reader's open return.
    File.open(@fifo, "w") { |f| f.write "through the fifo" }
    assert_equal "through the fifo", reader.value
  end

  def test_thread_raise_interrupts_open_of_a_fifo
    t = Thread.new { File.new(@fifo) }
    t.report_on_exception = false
    wait_blocked(t)
    t.raise(RuntimeError, "stop opening")
    e = assert_raise(RuntimeError) { t.join }
    assert_equal "stop opening", e.message
  end

  def test_thread_kill_interrupts_open_of_a_fifo_for_writing
    t = Thread.new { File.open(@fifo, "w") }
    wait_blocked(t)
    t.kill
    assert_same t, t.join(10)
    assert_equal false, t.status
  end

  def test_flock_waits_without_stopping_other_threads_and_thread_raise_interrupts_it
    path = "#{@dir}/lock"
    holder = File.open(path, "w")
    assert_equal 0, holder.flock(File::LOCK_EX)
    other = File.open(path, "r")
    assert_equal false, other.flock(File::LOCK_EX | File::LOCK_NB)
    t = Thread.new { other.flock(File::LOCK_EX) }
    t.report_on_exception = false
    wait_blocked(t)
    t.raise(IOError, "give up")
    assert_raise(IOError) { t.join }
    # once the holder lets go, a waiting flock gets the lock
    t = Thread.new { other.flock(File::LOCK_EX) }
    wait_blocked(t)
    holder.flock(File::LOCK_UN)
    assert_equal 0, t.value
  ensure
    holder&.close
    other&.close
  end

  def test_thread_raise_interrupts_process_wait
    pid = spawn("sleep", "30")
    t = Thread.new { Process.wait(pid) }
    t.report_on_exception = false
    wait_blocked(t)
    t.raise(RuntimeError, "no more waiting")
    e = assert_raise(RuntimeError) { t.join }
    assert_equal "no more waiting", e.message
    Process.kill(:KILL, pid)
    _, st = Process.wait2(pid)
    assert_equal 9, st.termsig
  end

  def test_process_status_wait_returns_a_status
    pid = spawn("exit 3")
    st = Process::Status.wait(pid)
    assert_kind_of Process::Status, st
    assert_equal [pid, 3], [st.pid, st.exitstatus]
  end

  # ---- a whole process stuck in a call ends on SIGTERM (within a second) ----

  def stuck_in_kernel?(pid, wchan)
    Dir.children("/proc/#{pid}/task").any? do |tid|
      (File.read("/proc/#{pid}/task/#{tid}/wchan") rescue "").include?(wchan)
    end
  end

  # Runs `code` in a child interpreter, waits until it says "ready" and one of its threads sits in
  # the kernel function `wchan` (a bounded look), sends SIGTERM: the child must die of it at once.
  def assert_sigterm_ends(code, wchan)
    r, w = IO.pipe
    pid = spawn("/proc/self/exe", "-e", code, out: w)
    w.close
    line = r.gets
    assert_equal "ready", line.to_s.split(" ").first
    deadline = MnTest.now + 5
    Thread.pass until stuck_in_kernel?(pid, wchan) || MnTest.now > deadline
    Process.kill(:TERM, pid)
    deadline = MnTest.now + 1
    st = nil
    st = Process.wait2(pid, Process::WNOHANG)&.last until st || MnTest.now > deadline
    unless st
      Process.kill(:KILL, pid)
      Process.wait(pid)
      flunk "the child ignored SIGTERM for a second"
    end
    assert_equal 15, st.termsig
    line
  ensure
    r&.close
  end

  def test_sigterm_ends_a_process_waiting_in_open_of_a_fifo
    assert_sigterm_ends("$stdout.write(%(ready\\n)); $stdout.flush; File.open(#{@fifo.inspect})", "wait_for_partner")
  end

  def test_sigterm_ends_a_process_whose_other_thread_waits_in_open_of_a_fifo
    code = "t = Thread.new { File.open(#{@fifo.inspect}) }; $stdout.write(%(ready\\n)); $stdout.flush; t.join"
    assert_sigterm_ends(code, "wait_for_partner")
  end

  def test_sigterm_ends_a_process_waiting_for_a_child
    code = "pid = spawn(%(sleep), %(30)); $stdout.write(%(ready \#{pid}\\n)); $stdout.flush; Process.wait(pid)"
    grandchild = assert_sigterm_ends(code, "do_wait").split(" ")[1].to_i
    Process.kill(:KILL, grandchild)
  end
end
