# Output that fails is never lost silently (CRuby 3.1 semantics): a write error raises its Errno;
# an uncaught Errno::EPIPE from writing to STDOUT ends the program by SIGPIPE, without a message,
# as a shell pipeline expects (`prog | head -1`).

class IOOutputErrorsTest < MnTest::Case
  # Runs `code` in a child interpreter with its stdout on `out` (a pipe when nil; the block gets its
  # reading end); [Process::Status, what it wrote on stderr].
  def run_child(code, out: nil)
    er, ew = IO.pipe
    r, w = IO.pipe unless out
    pid = spawn("/proc/self/exe", "-e", code, out: out || w, err: ew)
    ew.close
    if w
      w.close
      yield r
      r.close
    end
    err = er.read
    _, st = Process.wait2(pid)
    [st, err]
  ensure
    er&.close
  end

  def read_a_line_then_hang_up(r)
    assert_equal "1\n", r.gets
  end

  def test_a_broken_pipe_on_stdout_ends_the_program_by_sigpipe_quietly
    st, err = run_child("loop { puts 1 }") { |r| read_a_line_then_hang_up(r) }
    assert_equal 13, st.termsig
    assert_equal "", err
  end

  def test_print_and_p_end_by_sigpipe_too
    ["loop { print 1, 10.chr }", "loop { p 1 }", "loop { $stdout << 1 << 10.chr }"].each do |code|
      st, = run_child(code) { |r| read_a_line_then_hang_up(r) }
      assert_equal 13, st.termsig, code
    end
  end

  def test_the_at_exit_handlers_run_before_sigpipe_ends_the_program
    st, err = run_child("at_exit { $stderr.write(%(at_exit ran)) }; loop { puts 1 }") { |r| read_a_line_then_hang_up(r) }
    assert_equal [13, "at_exit ran"], [st.termsig, err]
  end

  def test_a_thread_dying_of_epipe_on_stdout_ends_the_program_by_sigpipe_at_join
    st, err = run_child("Thread.new { loop { puts 1 } }.join") { |r| read_a_line_then_hang_up(r) }
    assert_equal 13, st.termsig
    assert_include err, "Errno::EPIPE"      # the thread's report_on_exception
  end

  def test_a_rescued_epipe_on_stdout_is_an_ordinary_exception
    code = "begin; loop { puts 1 }; rescue Errno::EPIPE; $stderr.write(%(rescued)); exit 3; end"
    st, err = run_child(code) { |r| read_a_line_then_hang_up(r) }
    assert_equal [3, "rescued"], [st.exitstatus, err]
  end

  def test_epipe_on_another_pipe_is_reported_and_exits_with_status_1
    st, err = run_child("r, w = IO.pipe; r.close; w.write(%(x))") { |r| r.read }
    assert_equal 1, st.exitstatus
    assert_include err, "Broken pipe"
    assert_include err, "Errno::EPIPE"
  end

  def test_a_full_device_raises_enospc_and_exits_with_status_1
    st, err = run_child("print %(x) * 100_000", out: "/dev/full")
    assert_equal 1, st.exitstatus
    assert_include err, "No space left on device"
    assert_include err, "Errno::ENOSPC"
  end

  def test_close_twice_returns_nil
    r, w = IO.pipe
    assert_nil w.close
    assert_nil w.close
    assert_nil r.close
    assert_nil r.close
  end

  def test_writing_to_a_closed_stderr_raises_ioerror
    st, err = run_child(<<~'RUBY') { |r| assert_equal "IOError closed stream\n" * 3, r.read }
      $stderr.close
      [-> { $stderr.write("x") }, -> { $stderr.puts("x") }, -> { $stderr.print("x") }].each do |f|
        begin
          f.call
        rescue IOError => e
          $stdout.write("#{e.class} #{e.message}\n")
        end
      end
    RUBY
    assert_equal 0, st.exitstatus
    assert_equal "", err
  end
end
