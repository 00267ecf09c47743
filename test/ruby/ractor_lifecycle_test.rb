# A ractor's end: raising, dying with messages nobody received, being waited on by many.

class RactorLifecycleTest < MnTest::Case
  def test_a_ractor_that_raises_reports_it_to_every_taker
    r = Ractor.new { Ractor.receive; raise "late" }
    # takers in other ractors (CRuby 3.1 allows one waiting thread per ractor)
    takers = 3.times.map do
      Ractor.new(r) { |x| begin; x.take; :none; rescue Ractor::RemoteError => e; e.cause.message; rescue Ractor::ClosedError; :closed; end }
    end
    r << :go
    results = takers.map(&:take)
    assert_equal 1, results.count("late")
    assert_equal 2, results.count(:closed)
  end

  def test_dying_with_pending_messages
    r = Ractor.new { Ractor.yield :ready; Ractor.receive }
    r << 1 << 2 << 3          # before it receives: 2 and 3 are dropped when it ends
    assert_equal :ready, r.take
    assert_equal 1, r.take
    assert_raise(Ractor::ClosedError) { r << 4 }
  end

  def test_many_ractors_end
    rs = 20.times.map { |i| Ractor.new(i) { |x| x * 2 } }
    assert_equal 20.times.map { |i| i * 2 }, rs.map(&:take)
  end

  def test_a_thread_waiting_in_receive_can_be_killed
    mnrb_only   # CRuby 3.1 hangs here
    r = Ractor.new(Ractor.current) do |main|
      t = Thread.new { Ractor.receive }
      Thread.pass until t.status == "sleep"
      t.kill
      t.join
      main << :killed
      Ractor.receive
    end
    assert_equal :killed, Ractor.receive
    r << :after_kill
    assert_equal :after_kill, r.take
  end

  def test_thread_raise_interrupts_take
    r = Ractor.new { Ractor.receive }
    t = Thread.new { begin; r.take; rescue IndexError => e; e.message; end }
    Thread.pass until t.status == "sleep"
    t.raise IndexError, "interrupted"
    assert_equal "interrupted", t.value
    r << :done
    assert_equal :done, r.take
  end

  def test_exit_in_a_ractor_ends_only_that_ractor
    r = Ractor.new { exit; :unreachable }
    e = assert_raise(Ractor::ClosedError) { r.take }     # no value, no error: CRuby 3.1's answer
    assert_equal "The outgoing-port is already closed", e.message
    assert_raise(Ractor::ClosedError) { Ractor.new { exit 3 }.take }
    assert_equal 1, Ractor.new { 1 }.take
  end
end
