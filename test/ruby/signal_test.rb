# Signals (CRuby 3.1 semantics): handlers run in the main thread; SIGINT raises Interrupt there,
# even while it sleeps, waits on I/O or computes.

class SignalTest < MnTest::Case
  def teardown
    Signal.trap(:USR1, "DEFAULT")
    Signal.trap(:USR2, "DEFAULT")
    Signal.trap(:INT, "DEFAULT")
  end

  def test_a_trap_handler_runs_in_the_main_thread
    got = nil
    Signal.trap(:USR1) { |signo| got = [signo, Thread.current == Thread.main] }
    Process.kill(:USR1, Process.pid)
    wait_until("the handler") { got }
    assert_equal [10, true], got
  end

  def test_trap_returns_the_previous_handler
    first = proc {}
    Signal.trap("USR2", first)
    assert_same first, Signal.trap("SIGUSR2", "DEFAULT")
  end

  # Signals the main thread once it is in `sleep`/a read (not before: an Interrupt outside
  # assert_raise would end the test run).
  def kill_main_when(signal)
    main = Thread.current
    Thread.new { Thread.pass until yield(main); Process.kill(signal, Process.pid) }
  end

  def test_sigint_raises_interrupt_in_a_sleeping_main_thread
    kill_main_when(:INT) { |m| m.status == "sleep" }
    e = assert_raise(Interrupt) { sleep 10 }
    assert_kind_of SignalException, e
    assert_equal 2, e.signo
  end

  def test_sigint_interrupts_a_main_thread_blocked_on_a_pipe
    r, w = IO.pipe
    kill_main_when(:INT) { |m| m.status == "sleep" }
    assert_raise(Interrupt) { r.read }
    r.close
    w.close
  end

  def test_sigint_interrupts_a_computing_main_thread
    n = 0
    kill_main_when(:INT) { n > 1000 }
    assert_raise(Interrupt) { loop { n += 1 } }
    assert n > 0
  end

  def test_an_ignored_signal_does_nothing
    Signal.trap(:USR1, "IGNORE")
    got_usr2 = false
    Signal.trap(:USR2) { got_usr2 = true }
    Process.kill(:USR1, Process.pid)
    Process.kill(:USR2, Process.pid)     # handled after USR1 would have been (one pipe, in order)
    wait_until("the USR2 handler") { got_usr2 }
    assert got_usr2                       # and USR1 raised nothing on the way
  end

  def test_bad_signals_raise_argument_error
    assert_raise(ArgumentError) { Signal.trap(:NOSUCH) {} }
    assert_raise(Errno::EINVAL) { Signal.trap(:KILL) {} }
    assert_raise(ArgumentError) { Signal.trap(:VTALRM) {} }
    assert_raise(ArgumentError) { Process.kill(:NOSUCH, Process.pid) }
  end

  def test_signal_list_has_the_usual_names
    assert_equal 2, Signal.list["INT"]
    assert_equal 15, Signal.list["TERM"]
    assert_equal "INT", Signal.signame(2)
  end
end
