# Every delivery of a signal runs its trap handler once (CRuby counts deliveries per signal; only
# the kernel coalesces signals of one kind, while one is pending there, and a signal sent to self
# is delivered before kill returns).

class SignalCountTest < MnTest::Case
  def teardown
    Signal.trap(:USR1, "DEFAULT")
    Signal.trap(:USR2, "DEFAULT")
  end

  def test_a_thousand_signals_to_self_run_the_handler_a_thousand_times
    n = 0
    Signal.trap(:USR1) { n += 1 }
    1000.times { Process.kill(:USR1, Process.pid) }
    wait_until("1000 runs of the handler (#{n} so far)") { n >= 1000 }
    assert_equal 1000, n
  end

  def test_two_kinds_sent_in_turn_are_both_counted
    a = b = 0
    Signal.trap(:USR1) { a += 1 }
    Signal.trap(:USR2) { b += 1 }
    300.times do
      Process.kill(:USR1, Process.pid)
      Process.kill(:USR2, Process.pid)
    end
    wait_until("300 runs of each handler (#{a}, #{b} so far)") { a >= 300 && b >= 300 }
    assert_equal [300, 300], [a, b]
  end
end
