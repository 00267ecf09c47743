# Processes (CRuby 3.1 semantics): fork, wait, $?, system, backticks, spawn, kill.

class ProcessTest < MnTest::Case

  def test_system_returns_true_false_or_nil_and_sets_last_status
    assert_equal true, system("true")
    assert_equal 0, $?.exitstatus
    assert_equal false, system("exit 3")
    assert_equal 3, $?.exitstatus
    refute $?.success?
    assert_nil system("/nonexistent/mnrb-command")
  end

  def test_system_with_arguments_does_not_use_the_shell
    assert_equal true, system("test", "a b", "=", "a b")
  end

  def test_backticks_capture_standard_output
    assert_equal "hi\nthere\n", `echo hi; echo there`
    assert $?.success?
    `exit 5`
    assert_equal 5, $?.exitstatus
  end

  def test_fork_with_a_block_runs_it_in_a_child_that_exits
    fork_allowed!
    r, w = IO.pipe
    pid = fork { r.close; w.write "from child #{Process.pid}"; w.close }
    w.close
    got = r.read
    r.close
    wpid, st = Process.wait2(pid)
    assert_equal pid, wpid
    assert_equal "from child #{pid}", got
    assert st.success?
    assert_equal pid, st.pid
  end

  def test_fork_without_a_block_returns_nil_in_the_child
    fork_allowed!
    pid = fork
    exit!(42) if pid.nil?
    assert_equal pid, Process.wait(pid)
    assert_equal 42, $?.exitstatus
  end

  def test_an_exception_in_the_fork_block_exits_the_child_with_status_1
    fork_allowed!
    pid = fork { $stderr.reopen("/dev/null") rescue nil; raise "boom" }
    Process.wait(pid)
    assert_equal 1, $?.exitstatus
  end

  def test_exit_in_the_fork_block_sets_the_status
    fork_allowed!
    pid = fork { exit 9 }
    Process.wait(pid)
    assert_equal 9, $?.exitstatus
  end

  def test_only_the_forking_thread_survives_in_the_child
    fork_allowed!
    q = Queue.new
    others = 3.times.map { Thread.new { q.pop } }
    r, w = IO.pipe
    pid = fork do
      w.write "#{Thread.list.size} #{Thread.current == Thread.main}"
      w.close
    end
    w.close
    assert_equal "1 true", r.read
    Process.wait(pid)
    3.times { q << 1 }
    others.each(&:join)
    r.close
  end

  def test_a_thread_other_than_main_can_fork_and_the_child_runs_threads
    fork_allowed!
    r, w = IO.pipe
    t = Thread.new do
      fork do
        v = Thread.new { 6 * 7 }.value
        sleep 0.001
        w.write "#{v} #{Thread.list.size}"
        w.close
      end
    end
    pid = t.value
    w.close
    assert_equal "42 1", r.read
    Process.wait(pid)
    assert $?.success?
    r.close
  end

  def test_a_forked_child_runs_its_inherited_at_exit_handlers
    fork_allowed!
    r, w = IO.pipe
    pid = fork do
      r.close
      at_exit { w.write "handler ran"; w.close }
      exit 4
    end
    w.close
    assert_equal "handler ran", r.read
    Process.wait(pid)
    assert_equal 4, $?.exitstatus
    r.close
  end

  def test_waiting_in_one_thread_lets_others_run
    pid = spawn("sleep 0.05")
    waiter = Thread.new { Process.wait2(pid) }
    ticks = 0
    ticks += 1 while waiter.alive? && (Thread.pass || true) && ticks < 10_000_000
    _, st = waiter.value
    assert st.success?
    assert ticks > 0
  end

  def test_spawn_with_redirections_and_env
    path = "/tmp/mnrb-spawn-#{Process.pid}-#{rand(1_000_000)}"
    pid = spawn({ "MNRB_SPAWN_TEST" => "yes" }, "echo $MNRB_SPAWN_TEST; echo err >&2", out: path, err: [:child, :out])
    Process.wait(pid)
    assert_equal "yes\nerr\n", File.open(path) { |f| f.read }
    File.unlink(path)
  end

  def test_kill_and_termsig
    pid = spawn("sleep 10")
    assert_equal 1, Process.kill(:TERM, pid)
    Process.wait(pid)
    assert $?.signaled?
    assert_equal 15, $?.termsig
    assert_nil $?.exitstatus
  end

  def test_popen_reads_a_commands_output_and_close_sets_last_status
    assert_equal "hi\n", IO.popen("echo hi") { |io| io.read }
    assert $?.success?
    io = IO.popen("exit 3")
    io.read
    io.close
    assert_equal 3, $?.exitstatus
  end

  def test_popen_read_write_with_close_write
    io = IO.popen(["cat"], "r+")
    io.write "abc"
    io.close_write
    assert_equal "abc", io.read
    io.close
    assert $?.success?
  end

  def test_a_child_gets_blocking_standard_output_even_from_a_non_blocking_pipe
    r, w = IO.pipe
    pid = spawn("dd if=/dev/zero bs=65536 count=16 2>/dev/null", out: w)
    w.close
    assert_equal 1048576, r.read.bytesize      # a child with a non-blocking stdout would fail (EAGAIN)
    Process.wait(pid)
    assert $?.success?
    r.close
  end

  # STDIN inherited in blocking mode (here: from the parent's pipe): a thread reading it waits
  # without stopping the others (mnrb polls, then reads without the GVL).
  def test_a_child_blocked_on_its_stdin_keeps_running_its_other_threads
    code = 't = Thread.new { 3.times { |i| puts "tick #{i}"; $stdout.flush; sleep 0.001 }; puts "ready"; $stdout.flush }; ' \
           'line = $stdin.gets; t.join; puts "got #{line}"'
    to_child, w = IO.pipe
    r, from_child = IO.pipe
    pid = spawn("/proc/self/exe", "-e", code, in: to_child, out: from_child)
    to_child.close
    from_child.close
    seen = []
    while (l = r.gets)
      seen << l.chomp
      w.puts "hi" if l == "ready\n"
    end
    Process.wait(pid)
    assert_equal ["tick 0", "tick 1", "tick 2", "ready", "got hi"], seen
    r.close
    w.close
  end

  def test_wait_without_children_raises_echild
    assert_raise(Errno::ECHILD) { Process.wait }
  end

  def test_waitall_reaps_every_child
    pids = 3.times.map { |i| spawn("exit #{i}") }
    all = Process.waitall
    assert_equal pids.sort, all.map(&:first).sort
    assert_equal [0, 1, 2], all.map { |_, st| st.exitstatus }.sort
  end
end
