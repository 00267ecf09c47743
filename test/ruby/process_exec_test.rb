# Process.exec and Kernel#exec: the process becomes the program (same pid), with spawn's arguments
# (env hash, shell string or argv, redirects, chdir:); Errno::ENOENT when there is no such program.
# Each exec runs in a forked child whose output comes back through a pipe. Expected values are
# CRuby 3.1's (this file passes there too).
require "tmpdir"

class ProcessExecTest < MnTest::Case
  # runs the block in a child with stdout on a pipe; [output, status]
  def in_child
    fork_allowed!
    r, w = IO.pipe
    pid = fork do
      r.close
      yield w
      exit!(99)
    end
    w.close
    out = r.read
    r.close
    Process.wait(pid)
    [out, $?]
  end

  def test_exec_keeps_the_pid_and_passes_arguments
    out, st = in_child do |w|
      exec("/bin/sh", "-c", "echo $$ \"$1\" >&#{w.fileno}; exit 3", "sh", "a b", w.fileno => w.fileno)
    end
    pid, arg = out.split(" ", 2)
    assert_equal st.pid, pid.to_i
    assert_equal "a b\n", arg
    assert_equal 3, st.exitstatus
  end

  def test_shell_string_env_chdir_and_redirect
    Dir.mktmpdir do |dir|
      out, st = in_child do |w|
        Process.exec({ "MNRB_EXEC_T" => "v1" }, "echo $MNRB_EXEC_T `pwd`", out: w, chdir: dir)
      end
      assert_equal "v1 #{File.realpath(dir)}\n", out
      assert_equal 0, st.exitstatus
    end
  end

  def test_missing_program_raises_and_the_process_goes_on
    out, st = in_child do |w|
      begin
        exec("/nonexistent/mnrb-no-such-program", "x")
      rescue Errno::ENOENT => e
        w.write(e.message)
      end
      w.close
      exit!(7)
    end
    assert_include out, "/nonexistent/mnrb-no-such-program"
    assert_equal 7, st.exitstatus
  end

  def test_sigpipe_is_default_in_the_program
    out, st = in_child do |w|
      exec("/bin/sh", "-c", "kill -PIPE $$; echo survived", out: w)
    end
    assert_equal "", out
    assert_equal Signal.list["PIPE"], st.termsig
    # (only SIGPIPE's bit: other ignored signals come from whoever started the test)
    out, = in_child { |w| exec("grep", "SigIgn", "/proc/self/status", out: w) }
    ignored = out[/SigIgn:\s*(\h+)/, 1].to_i(16)
    assert_equal 0, ignored[Signal.list["PIPE"] - 1], "SIGPIPE ignored in the program: #{out}"
  end
end
