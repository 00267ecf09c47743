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

  def test_sigint_raises_interrupt_in_a_sleeping_main_thread
    Thread.new { sleep 0.01; Process.kill(:INT, Process.pid) }
    e = assert_raise(Interrupt) { sleep 10 }
    assert_kind_of SignalException, e
    assert_equal 2, e.signo
  end

  def test_sigint_interrupts_a_main_thread_blocked_on_a_pipe
    r, w = IO.pipe
    Thread.new { sleep 0.01; Process.kill(:INT, Process.pid) }
    assert_raise(Interrupt) { r.read }
    r.close
    w.close
  end

  def test_sigint_interrupts_a_computing_main_thread
    Thread.new { sleep 0.01; Process.kill(:INT, Process.pid) }
    n = 0
    assert_raise(Interrupt) { loop { n += 1 } }
    assert n > 0
  end

  def test_an_ignored_signal_does_nothing
    Signal.trap(:USR1, "IGNORE")
    Process.kill(:USR1, Process.pid)
    sleep 0.01
    assert true
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
