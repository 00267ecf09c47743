# require "pty" and "expect" as CRuby's: PTY.open's pair (a terminal: output gets "\r\n"),
# PTY.spawn's reader, writer and pid (the child is a session leader whose controlling terminal is
# the new one; reading after it exits raises Errno::EIO), the shell for one String with shell
# syntax, PTY.check and PTY::ChildExited, and IO#expect with Strings, Regexps, captures and a
# timeout. Expectations printed by CRuby 3.3.8 and Debian's ruby 3.1.
require "pty"
require "expect"

class PtyTest < MnTest::Case
  # PTY.check until the child is done: it was killed or has closed its terminal, so this is short
  def reap(pid)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
    loop do
      st = PTY.check(pid)
      return st if st
      flunk "child #{pid} did not exit" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      Thread.pass
    end
  end

  def read_rest(io)
    out = +""
    loop { out << io.readpartial(100) }
  rescue Errno::EIO, EOFError
    out
  end

  def test_open_gives_a_terminal_pair
    master, slave = PTY.open
    assert_equal [IO, File, true, true], [master.class, slave.class, slave.tty?, master.sync]
    assert_equal true, slave.path.start_with?("/dev/pts/")
    slave.write("line\n")
    assert_equal "line\r\n", master.readpartial(100)
    master.write("typed\n")
    assert_equal "typed\n", slave.gets
  ensure
    master&.close
    slave&.close
  end

  def test_open_with_block_closes_both
    kept = nil
    ret = PTY.open { |m, s| kept = [m, s]; :value }
    assert_equal [:value, true, true], [ret, kept[0].closed?, kept[1].closed?]
  end

  def test_spawn_output_then_eio
    r, w, pid = PTY.spawn("echo hi")
    assert_equal [File, File, Integer], [r.class, w.class, pid.class]
    assert_equal "hi\r\n", r.gets
    assert_raise(Errno::EIO) { r.gets }
    assert_equal true, reap(pid).success?
  ensure
    r&.close
    w&.close
  end

  def test_spawn_argv_and_shell
    r, _w, pid = PTY.spawn("echo", "a  b")
    assert_equal "a  b\r\n", read_rest(r)
    reap(pid)
    r, _w, pid = PTY.spawn("echo $((1+2)) | tr 3 x")
    assert_equal "x\r\n", read_rest(r)
    reap(pid)
  end

  def test_child_has_the_terminal_as_controlling_terminal
    r, _w, pid = PTY.spawn("/bin/sh", "-c", "exec </dev/tty && echo ctty; test -t 1 && echo tty1")
    assert_equal "ctty\r\ntty1\r\n", read_rest(r)
    reap(pid)
  end

  def test_spawn_block_returns_nil
    got = nil
    assert_nil PTY.spawn("echo", "blk") { |r, _w, _pid| got = r.gets }
    assert_equal "blk\r\n", got
  end

  def test_spawn_missing_command
    e = assert_raise(Errno::ENOENT) { PTY.spawn("no-such-command-mnrb") }
    assert_equal "No such file or directory - fork failed", e.message
  end

  def test_check_and_child_exited
    r, w, pid = PTY.spawn("cat")
    assert_nil PTY.check(pid)
    w.puts "x"
    assert_equal ["x\r\n", "x\r\n"], [r.gets, r.gets]          # the terminal's echo, then cat's
    Process.kill(:TERM, pid)
    e = nil
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
    until e || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      begin
        PTY.check(pid, true)
        Thread.pass
      rescue PTY::ChildExited => e
      end
    end
    assert_equal ["pty - exited: #{pid}", true, RuntimeError], [e.message, e.status.signaled?, PTY::ChildExited.superclass]
    assert_nil PTY.check(pid)                                  # reaped
  ensure
    r&.close
    w&.close
  end

  def test_expect
    r, w, pid = PTY.spawn("cat")
    w.puts "abc 123"
    assert_equal ["abc 123\r", "123"], r.expect(/c (\d+)\r/, 10)       # matched as soon as it can
    assert_nil r.expect("zzz", 0.3)                            # times out: what it read is kept
    assert_equal ["\nabc 123"], r.expect("123", 10)
    seen = nil
    w.puts "next"
    r.expect("next") { |res| seen = res }
    assert_equal ["\r\nnext"], seen
    assert_equal "unsupported pattern class: Integer", assert_raise(TypeError) { r.expect(1) }.message
    Process.kill(:KILL, pid)
    reap(pid)
  ensure
    r&.close
    w&.close
  end
end
