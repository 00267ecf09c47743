# Signals sent to a process are that process's, also when it has forked: a child must not handle
# (or die of) a signal sent to its parent. mnrb's forked child shared its parent's signal pipe, so
# its event loop could read the parent's signals: the stress suite saw a child die of the SIGTERM
# sent to its parent. Each test forks; skipped where fork is (ThreadSanitizer).
class SignalForkTest < MnTest::Case
  def test_signals_sent_to_the_parent_stay_with_the_parent
    fork_allowed!
    got = 0
    trap(:USR1) { got += 1 }
    r, w = IO.pipe
    go_r, go_w = IO.pipe
    pid = fork do
      r.close
      go_w.close
      seen = 0
      trap(:USR1) { seen += 1 }
      go_r.read(1)                       # the parent has sent its signals
      w.write(seen.to_s)
      w.close
      exit!(0)
    end
    w.close
    go_r.close
    200.times { Process.kill(:USR1, Process.pid) }
    deadline = MnTest.now + 20
    Thread.pass until got >= 200 || MnTest.now > deadline
    go_w.write("x")
    go_w.close
    child_seen = r.read.to_i
    _, st = Process.wait2(pid)
    assert st.success?, st.inspect
    assert_equal 0, child_seen, "the child handled the parent's signals"
    assert_equal 200, got
  ensure
    trap(:USR1, "DEFAULT")
  end
end
