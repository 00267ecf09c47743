# Process's attributes: process group and session (getpgid, getpgrp, setpgid, getsid, setsid in a
# child), priority with PRIO_*, resource limits with RLIMIT_* and RLIM_INFINITY, groups, maxgroups,
# argv0, setproctitle. Expected values are CRuby 3.1's (this file passes there too).
class ProcessAttrsTest < MnTest::Case
  def test_process_group_and_session
    assert_kind_of Integer, Process.getpgrp
    assert_equal Process.getpgrp, Process.getpgid(0)
    assert_equal Process.getpgrp, Process.getpgid(Process.pid)
    assert_equal Process.getsid(0), Process.getsid
    assert_equal Process.getsid(nil), Process.getsid(Process.pid)
    assert_raise(Errno::ESRCH) { Process.getpgid(2**22 + 12345) }
    assert_raise(Errno::ESRCH) { Process.getsid(2**22 + 12345) }
    assert_raise(TypeError) { Process.getpgid(nil) }
    assert_raise(TypeError) { Process.getpgid("1") }
  end

  def test_setsid_and_setpgid_in_a_child
    fork_allowed!
    r, w = IO.pipe
    pid = fork do
      r.close
      sid = Process.setsid
      w.write([sid == Process.pid, Process.getsid == Process.pid, Process.getpgrp == Process.pid].inspect)
      w.close
      exit!(0)
    end
    w.close
    assert_equal "[true, true, true]", r.read
    r.close
    Process.wait(pid)
    r, w = IO.pipe
    pid = fork do
      w.close
      r.read                      # until the parent has looked
      exit!(0)
    end
    r.close
    begin
      assert_equal 0, Process.setpgid(pid, pid)
      assert_equal pid, Process.getpgid(pid)
    ensure
      w.close
      Process.wait(pid)
    end
    assert_equal true, $?.success?
  end

  def test_priority
    fork_allowed!
    assert_equal [0, 1, 2], [Process::PRIO_PROCESS, Process::PRIO_PGRP, Process::PRIO_USER]
    prio = Process.getpriority(Process::PRIO_PROCESS, 0)
    assert_kind_of Integer, prio
    pid = fork do
      Process.setpriority(Process::PRIO_PROCESS, 0, prio + 1)
      exit!(Process.getpriority(Process::PRIO_PROCESS, 0) == prio + 1 ? 0 : 1)
    end
    Process.wait(pid)
    assert_equal 0, $?.exitstatus
    assert_raise(Errno::ESRCH) { Process.getpriority(Process::PRIO_PROCESS, 2**22 + 12345) }
  end

  def test_rlimits
    fork_allowed!
    assert_equal 18446744073709551615, Process::RLIM_INFINITY
    assert_equal 7, Process::RLIMIT_NOFILE
    assert_equal 4, Process::RLIMIT_CORE
    cur, max = Process.getrlimit(Process::RLIMIT_NOFILE)
    assert cur > 0 && cur <= max
    assert_equal [cur, max], Process.getrlimit(:NOFILE)
    assert_equal [cur, max], Process.getrlimit("NOFILE")
    e = assert_raise(ArgumentError) { Process.getrlimit(:FOO) }
    assert_equal "invalid resource name: FOO", e.message
    assert_raise(TypeError) { Process.getrlimit(nil) }
    pid = fork do
      ok = Process.setrlimit(:CORE, 0).nil? && Process.getrlimit(:CORE) == [0, 0]
      Process.setrlimit(Process::RLIMIT_NOFILE, 64, max)
      ok &&= Process.getrlimit(:NOFILE) == [64, max]
      exit!(ok ? 0 : 1)
    end
    Process.wait(pid)
    assert_equal 0, $?.exitstatus
    # the hard limit cannot be raised above what it is without privilege... unless root
    core = Process.getrlimit(:CORE)
    assert(core.all? { |v| v.is_a?(Integer) && v >= 0 })
  end

  def test_groups_argv0_setproctitle
    assert_kind_of Array, Process.groups
    assert(Process.groups.all? { |g| g.is_a?(Integer) })
    assert_equal 65536, Process.maxgroups
    assert_kind_of String, Process.argv0
    assert_equal "title", Process.setproctitle("title")
    assert_raise(TypeError) { Process.setproctitle(1) }
  end

  def test_detach
    fork_allowed!
    pid = fork { exit!(3) }
    th = Process.detach(pid)
    assert_kind_of Thread, th
    assert_equal "Process::Waiter", th.class.name
    assert_equal pid, th.pid
    st = th.value
    assert_kind_of Process::Status, st
    assert_equal 3, st.exitstatus
  end
end

class ProcessDaemonTest < MnTest::Case
  def test_daemon_goes_on_in_a_new_session
    fork_allowed!
    r, w = IO.pipe
    pid = fork do
      r.close
      Process.daemon(nil, true)
      w.write([Process.pid, Process.getsid, Dir.pwd, $stdout.tty?].inspect)
      w.close
      exit!(0)
    end
    w.close
    Process.wait(pid)
    assert_equal 0, $?.exitstatus
    dpid, sid, dir, = eval(r.read)
    r.close
    refute pid == dpid
    refute sid == Process.getsid    # a new session...
    refute sid == dpid              # ...that the daemon does not lead (CRuby forks twice)
    assert_equal "/", dir
  end

  def test_daemon_redirects_to_dev_null
    fork_allowed!
    r, w = IO.pipe
    pid = fork do
      r.close
      Process.daemon(true)
      w.write([File.identical?("/dev/null", STDOUT), File.identical?("/dev/null", STDIN), Dir.pwd].inspect)
      w.close
      exit!(0)
    end
    w.close
    Process.wait(pid)
    assert_equal [true, true, Dir.pwd].inspect, r.read
    r.close
  end
end

class ProcessCredentialsTest < MnTest::Case
  # runs the block in a child; its value (inspect'ed) comes back
  def in_child
    fork_allowed!
    r, w = IO.pipe
    pid = fork do
      r.close
      w.write((yield).inspect)
      w.close
      exit!(0)
    end
    w.close
    out = r.read
    r.close
    Process.wait(pid)
    out
  end

  def test_setting_ids_to_the_current_ones
    uid = Process.uid
    gid = Process.gid
    assert_equal [uid, uid, gid, gid].inspect, in_child {
      [Process.uid = uid, Process.euid = uid, Process.gid = gid, Process.egid = gid]
    }
    assert_equal [uid, gid].inspect, in_child { Process.uid = Process.uid; [Process.uid, Process.gid] }
  end

  def test_names_and_errors
    e = assert_raise(ArgumentError) { Process.uid = "mnrb-no-such-user-x" }
    assert_equal "can't find user for mnrb-no-such-user-x", e.message
    e = assert_raise(ArgumentError) { Process.gid = "mnrb-no-such-group-x" }
    assert_equal "can't find group for mnrb-no-such-group-x", e.message
    assert_raise(TypeError) { Process.uid = nil }
    e = assert_raise(ArgumentError) { Process.groups = [0] * 70000 }
    assert_equal "too many groups, 65536 max", e.message
    e = assert_raise(ArgumentError) { Process.maxgroups = 0 }
    assert_equal "maxgroups 0 should be positive", e.message
    if Process.euid == 0
      assert_equal "[0, 0]", in_child {
        Process.uid = "root"
        Process.gid = "root"
        [Process.uid, Process.gid]
      }
    end
  end

  def test_groups_assignment_as_root
    return unless Process.euid == 0
    assert_equal "[[0, 1], [0, 1], 100000, 65536]", in_child {
      [Process.groups = [0, 1], Process.groups, Process.maxgroups = 100000, Process.maxgroups]
    }
    assert_equal Process.groups.include?(0) ? "true" : "true", in_child {
      Process.initgroups("root", 0).include?(0)
    }
  end

  def test_unprivileged_change_fails
    return unless Process.euid == 0
    out = in_child do
      Process.groups = []
      Process.gid = Process.egid = 65534
      Process.uid = Process.euid = 65534
      begin
        Process.groups = [0]
        :changed
      rescue Errno::EPERM
        :eperm
      end
    end
    assert_equal ":eperm", out
  end
end
