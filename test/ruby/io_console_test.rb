# io/console as CRuby's: on a terminal (a pseudo-terminal made by python3's pty module, which runs
# a child interpreter as its session's controlling terminal, 33x101, and types into it only after
# the child's prompt appeared or its echo went off: no timing), winsize and winsize=, echo?/noecho/echo=, raw/getch,
# getpass (the typed text not echoed), console_mode, IO.console and io/console/size; off a
# terminal, Errno::ENOTTY named as CRuby names it, and IO.console nil without a controlling
# terminal. Checked on CRuby 3.3.8 and 3.1.
require "io/console"
require "rbconfig"

class IOConsoleTest < MnTest::Case
  # argv: mode ("pty" or "notty"), interpreter, code, then pairs (text to wait for, text to type);
  # "<noecho>" waits for the terminal's ECHO flag to go off instead.
  # Prints what the child wrote (the terminal's output, or its stdout).
  DRIVER = <<~'PY'
    import os, pty, sys, struct, fcntl, termios, time
    mode, ruby, code, steps = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    if mode == "notty":
        pid = os.fork()
        if pid == 0:
            os.setsid()
            os.execv(ruby, [ruby, "-e", code])
        os.waitpid(pid, 0)
        sys.exit(0)
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 33, 101, 0, 0))
        os.execv(ruby, [ruby, "-e", code])
    out = b""
    def more():
        global out
        try:
            b = os.read(fd, 4096)
        except OSError:
            b = b""
        out += b
        return b != b""
    for i in range(0, len(steps), 2):
        limit = time.time() + 60   # a child that never turns echo off fails the test, not hangs it
        while steps[i] == "<noecho>" and termios.tcgetattr(fd)[3] & termios.ECHO and time.time() < limit:
            time.sleep(0.001)   # polls the terminal's state (the master sees the slave's flags)
        while steps[i] != "<noecho>" and steps[i].encode() not in out:
            if not more():
                break
        os.write(fd, steps[i + 1].encode())
    while more():
        pass
    os.waitpid(pid, 0)
    sys.stdout.buffer.write(out)
  PY

  def run_child(mode, code, *steps)
    IO.popen(["python3", "-c", DRIVER, mode, RbConfig.ruby, code, *steps], "r", &:read)
  end

  def on_tty(code, *steps) = run_child("pty", code, *steps)

  def test_not_a_terminal_raises_enotty
    r, w = IO.pipe
    e = assert_raise(Errno::ENOTTY) { r.winsize }
    assert_equal "Inappropriate ioctl for device", e.message
    assert_raise(Errno::ENOTTY) { r.raw { flunk } }
    assert_raise(Errno::ENOTTY) { r.noecho { flunk } }
    assert_raise(Errno::ENOTTY) { r.echo? }
    assert_raise(Errno::ENOTTY) { r.console_mode }
    assert_raise(Errno::ENOTTY) { w.winsize = [1, 2] }
    File.open(__FILE__) do |f|
      e = assert_raise(Errno::ENOTTY) { f.winsize }
      assert_equal "Inappropriate ioctl for device - #{__FILE__}", e.message
    end
    e = assert_raise(ArgumentError) { w.winsize = [1, 2, 3] }
    assert_equal "wrong number of arguments (given 3, expected 2 or 4)", e.message
  ensure
    r&.close
    w&.close
  end

  def test_cursor_and_screen_sequences
    r, w = IO.pipe
    assert_same w, w.goto(2, 3)
    w.cursor_up(1).cursor_down(2).cursor_right(3).cursor_left(4).goto_column(5)
    w.erase_line(0).erase_line(2).erase_screen(1).clear_screen.scroll_forward(2).scroll_backward(3)
    w.cursor_up(-1).cursor_up(0).cursor_down(-2)
    assert_same w, w.beep
    e = assert_raise(ArgumentError) { w.erase_line(3) }
    assert_equal "wrong line erase mode: 3", e.message
    e = assert_raise(ArgumentError) { w.erase_screen(4) }
    assert_equal "wrong screen erase mode: 4", e.message
    w.close
    assert_equal "\e[3;4H\e[1A\e[2B\e[3C\e[4D\e[6G\e[0K\e[2K\e[1J\e[2J\e[1;1H\e[2S\e[3T\e[1B\e[2A\a", r.read
  ensure
    r&.close
    w&.close unless w&.closed?
  end

  def test_no_controlling_terminal_no_console
    assert_equal "nil\n[25, 80]\n", run_child("notty", 'require "io/console/size"; p IO.console; ENV.delete("LINES"); ENV.delete("COLUMNS"); p IO.console_size')
  end

  def test_winsize_on_a_terminal
    out = on_tty('require "io/console"; p STDIN.winsize; STDOUT.winsize = [40, 120]; p STDIN.winsize, STDOUT.tty?')
    assert_equal "[33, 101]\r\n[40, 120]\r\ntrue\r\n", out
  end

  def test_console_and_size
    out = on_tty('require "io/console/size"; c = IO.console; p c.class, c.equal?(IO.console), c.winsize, IO.console_size, IO.console(:winsize); p IO.console(:close), c.closed?')
    assert_equal "File\r\ntrue\r\n[33, 101]\r\n[33, 101]\r\n[33, 101]\r\nnil\r\ntrue\r\n", out
  end

  def test_echo_and_modes
    code = 'require "io/console"; p STDIN.echo?; STDIN.noecho { p STDIN.echo? }; p STDIN.echo?; ' \
           'STDIN.echo = false; p STDIN.echo?; STDIN.echo = true; p STDIN.echo?; ' \
           'm = STDIN.console_mode; p m.class; STDIN.raw { p STDIN.echo? }; p STDIN.console_mode == m || STDIN.echo?; ' \
           'STDIN.raw!; p STDIN.echo?; STDIN.cooked!; p STDIN.echo?; ' \
           'x = STDIN.raw { |io| io.equal?(STDIN) && 7 }; p x; STDIN.console_mode = m; p STDIN.echo?'
    out = on_tty(code)
    assert_equal "true\r\nfalse\r\ntrue\r\nfalse\r\ntrue\r\nIO::ConsoleMode\r\nfalse\ntrue\r\nfalse\ntrue\r\n7\r\ntrue\r\n", out
  end

  def test_getch_in_raw_mode
    out = on_tty('require "io/console"; STDIN.raw { STDOUT.write "R>"; STDOUT.flush; c = STDIN.getch; STDOUT.write c.inspect }; puts "", STDIN.echo?', "R>", "x")
    assert_equal "R>\"x\"\r\ntrue\r\n", out
  end

  def test_getpass_does_not_echo
    out = on_tty('require "io/console"; pw = STDIN.getpass("Password: "); p pw, STDIN.echo?', "<noecho>", "s3cret\n")
    assert_equal "Password: \r\n\"s3cret\"\r\ntrue\r\n", out
  end
end
