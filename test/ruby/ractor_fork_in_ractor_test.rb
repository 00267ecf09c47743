# fork inside a non-main ractor: in the child the forking ractor is the main ractor (CRuby's
# rb_ractor_atfork makes it the single main ractor, and the forking thread the VM's main thread):
# Ractor.main is it, nothing is isolated (global variables), at_exit handlers run, `exit` sets the
# child's status, and the child ends when the forking thread does. Checked on CRuby 3.3.8 for a
# fork with a block; fork without a block is CRuby 4.0's source read (3.3.8 dies there with
# "[BUG] rb_thread_terminate_all: called by child thread"). Before sem20j mnrb's child was still a
# non-main ractor (IsolationError for a global, Ractor.main another one) and, forked without a
# block, never ended.

class RactorForkInRactorTest < MnTest::Case
  def setup
    fork_allowed!
  end

  def test_the_child_of_a_ractor_runs_as_the_main_ractor
    r = Ractor.new do
      rd, wr = IO.pipe
      pid = fork do
        rd.close
        $ractor_fork_global = 5            # IsolationError in a non-main ractor
        wr.puts [Ractor.current == Ractor.main, Ractor.count, $ractor_fork_global].inspect
        at_exit { wr.puts "at_exit"; wr.flush }
        exit 3
      end
      wr.close
      watchdog = Thread.new { sleep 30; Process.kill(:KILL, pid) }   # a hang fails the status
      out = rd.read
      _, st = Process.wait2(pid)
      watchdog.kill
      [st.exitstatus, out]
    end
    assert_equal [3, "[true, 1, 5]\nat_exit\n"], r.take
  end

  def test_a_child_forked_without_a_block_ends_with_the_ractor_s_block
    skip "CRuby 3.3 dies with [BUG] here (4.0's behaviour)" unless mnrb? || RUBY_VERSION >= "4"
    r = Ractor.new do
      rd, wr = IO.pipe
      if (pid = fork)
        wr.close
        watchdog = Thread.new { sleep 30; Process.kill(:KILL, pid) }
        out = rd.read
        _, st = Process.wait2(pid)
        watchdog.kill
        [st.exitstatus, out]
      else
        rd.close
        at_exit { wr.puts "at_exit"; wr.flush }
        wr.puts Ractor.main?
        :ends_the_child                    # the forking thread's end is the child's
      end
    end
    assert_equal [0, "true\nat_exit\n"], r.value
  end

  def test_exit_in_a_child_forked_without_a_block_is_its_status
    skip "CRuby 3.3 dies with [BUG] here (4.0's behaviour)" unless mnrb? || RUBY_VERSION >= "4"
    r = Ractor.new do
      if (pid = fork)
        watchdog = Thread.new { sleep 30; Process.kill(:KILL, pid) }
        _, st = Process.wait2(pid)
        watchdog.kill
        st.exitstatus
      else
        exit 7
      end
    end
    assert_equal 7, r.value
  end
end
