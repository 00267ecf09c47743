# Issue 20, lifecycle: `exit` (SystemExit) inside a ractor, in its block or in one of its threads,
# ends that ractor as any exception does: Ractor#value and #join raise Ractor::RemoteError whose cause
# is the SystemExit and whose #ractor is the ractor (CRuby 4.0, Bug #21505; CRuby's
# bootstraptest/test_ractor.rb "SystemExit from a Ractor is re-raised"); a monitor is told :aborted,
# the path of other exceptions. Nothing is printed (CRuby reports no SystemExit) and the process
# lives on. The 3.x API keeps 3.x's answer: #take raises Ractor::ClosedError (CRuby 3.1 agrees).
# CRuby 3.1 has no #value, #join nor #monitor: those tests follow CRuby 4.0's documentation there.
class RactorExitValueTest < MnTest::Case
  VALUE = Ractor.method_defined?(:value)

  def remote_error(r, how = :value)
    e = assert_raise(Ractor::RemoteError) { r.public_send(how) }
    [e.cause.class, e.cause.message, e.ractor == r]
  end

  def test_exit_in_the_block_is_the_cause_of_value_s_and_join_s_remote_error
    skip "Ractor#value is CRuby 3.5's" unless VALUE
    r = Ractor.new { exit }
    assert_equal [SystemExit, "exit", true], remote_error(r)
    assert_equal [SystemExit, "exit", true], remote_error(r, :join)
    assert_equal [SystemExit, "exit", true], remote_error(r)   # again: the successor may ask again
  end

  def test_exit_in_a_thread_of_the_ractor
    skip "Ractor#value is CRuby 3.5's" unless VALUE
    r = Ractor.new { Thread.new { exit }.join }
    assert_equal [SystemExit, "exit", true], remote_error(r)
    # not joined: the thread's SystemExit goes on in the ractor's main thread, as in the main ractor
    r = Ractor.new { Thread.new { exit 6 }; sleep; :not_here }
    assert_equal [SystemExit, "exit", true], remote_error(r, :join)
  end

  def test_the_cause_keeps_the_status_and_the_message
    skip "Ractor#value is CRuby 3.5's" unless VALUE
    statuses = [Ractor.new { exit 3 }, Ractor.new { exit false }, Ractor.new { exit true },
                Ractor.new { raise SystemExit.new(5, "bye") }].map do |r|
      e = assert_raise(Ractor::RemoteError) { r.value }
      [e.cause.status, e.cause.success?, e.cause.message]
    end
    assert_equal [[3, false, "exit"], [1, false, "exit"], [0, true, "exit"], [5, false, "bye"]], statuses
  end

  def test_ensure_clauses_run_and_the_ractor_s_own_rescue_sees_the_exit
    skip "Ractor#value is CRuby 3.5's" unless VALUE
    r = Ractor.new { begin; exit 2; ensure; Ractor.main << :ensure_ran; end }
    assert_equal :ensure_ran, Ractor.receive
    assert_equal SystemExit, assert_raise(Ractor::RemoteError) { r.value }.cause.class
    assert_equal :rescued, Ractor.new { begin; exit; rescue SystemExit; :rescued; end }.value
  end

  def test_a_monitor_is_told_aborted
    skip "Ractor#monitor is CRuby 3.5's" unless Ractor.method_defined?(:monitor)
    port = Ractor::Port.new
    r = Ractor.new { Ractor.receive; exit }
    r.monitor(port)
    r << :go
    assert_equal :aborted, port.receive
  end

  def test_the_3x_take_raises_closed_error
    skip "no Ractor#take in CRuby 3.5+" unless Ractor.method_defined?(:take)
    e = assert_raise(Ractor::ClosedError) { Ractor.new { exit }.take }
    assert_equal "The outgoing-port is already closed", e.message
    assert_raise(Ractor::ClosedError) { Ractor.new { Thread.new { exit 1 }.join }.take }
  end

  # [status, stdout, stderr] of a program run by this Ruby
  def run_program(code)
    out_r, out_w = IO.pipe
    err_r, err_w = IO.pipe
    pid = spawn(RbConfig.ruby, "-e", "Warning[:experimental] = false if Warning.respond_to?(:[]=); #{code}",
                out: out_w, err: err_w)
    out_w.close
    err_w.close
    err = Thread.new { err_r.read }
    out = out_r.read
    Process.wait(pid)
    [$?, out, err.value]
  ensure
    [out_r, err_r].each { |io| io.close unless io.closed? }
  end

  def test_nothing_is_printed_and_the_process_lives_on
    skip "Ractor#value is CRuby 3.5's" unless VALUE
    status, out, err = run_program('at_exit { puts "at_exit" }; ' \
                                   'a = Ractor.new { exit 4 }; b = Ractor.new { Thread.new { exit 5 }.join }; ' \
                                   'p [a, b].map { |r| begin; r.value; rescue Ractor::RemoteError => e; e.cause.status; end }')
    assert_equal "[4, 5]\nat_exit\n", out
    assert_equal "", err
    assert_equal 0, status.exitstatus, status.inspect
  end

  def test_an_unrescued_remote_exit_ends_the_main_ractor_with_status_1
    skip "Ractor#value is CRuby 3.5's" unless VALUE
    status, _, err = run_program("Ractor.new { exit 0 }.join")
    assert_equal 1, status.exitstatus, status.inspect
    assert_include err, "Ractor::RemoteError"
    assert_include err, "SystemExit"
  end
end
