# Issue 20, lifecycle as CRuby 4.0 defines it, the points the other ractor tests leave out: the
# successor may ask for the value again (same object) and join as often as it likes; a ractor waiting
# on another that ends by `exit` goes on; receive_if and fork work inside a non-main ractor (CRuby 3.1
# too); a ractor whose block raises is reported and its error reaches whoever asks, with the ractor
# and the cause's backtrace.
class RactorLifecycleRulesTest < MnTest::Case
  VALUE = Ractor.method_defined?(:value)

  def result(r) = VALUE ? r.value : r.take

  def test_the_successor_gets_the_same_value_every_time
    skip "Ractor#value is CRuby 3.5's" unless VALUE
    r = Ractor.new { "v" * 3 }
    v = r.value
    assert_equal "vvv", v
    assert_same v, r.value
  end

  def test_join_returns_the_ractor_every_time
    skip "Ractor#join is CRuby 3.5's" unless VALUE
    r = Ractor.new { 1 }
    assert_same r, r.join
    assert_same r, r.join
    assert_equal 1, r.value
  end

  def test_a_ractor_waiting_on_one_that_exits_goes_on
    skip "Ractor#value is CRuby 3.5's" unless VALUE
    a = Ractor.new { exit }
    b = Ractor.new(a) do |x|   # CRuby 4.0 (Bug #21505): the SystemExit is the cause of a RemoteError
      [(x.value rescue $!.cause.class), (x.join rescue $!.cause.message), :went_on]
    end
    assert_equal [SystemExit, "exit", :went_on], b.value
  end

  def test_receive_if_in_a_non_main_ractor
    r = Ractor.new do
      got = Ractor.receive_if { |m| m.is_a?(Integer) && m > 1 }
      [got, Ractor.receive, Ractor.receive]
    end
    r << :a << 1 << 5
    assert_equal [5, :a, 1], result(r)
  end

  def test_fork_in_a_non_main_ractor
    fork_allowed!
    r = Ractor.new do
      pid = fork { exit!(7) }
      Process.wait(pid)
      [$?.exitstatus, Ractor.current == Ractor.main]
    end
    assert_equal [7, false], result(r)
  end

  def test_the_error_of_a_ractor_names_it_and_keeps_the_cause_s_backtrace
    r = Ractor.new { raise IndexError, "nope" }
    err = assert_raise(Ractor::RemoteError) { result(r) }
    assert_same r, err.ractor
    assert_equal "thrown by remote Ractor.", err.message
    assert_kind_of IndexError, err.cause
    assert_equal "nope", err.cause.message
    assert err.cause.backtrace.any? { |l| l.include?(__FILE__) }, err.cause.backtrace.inspect
  end

  def test_many_ractors_raise_at_once_and_every_error_comes_back
    rs = 8.times.map { |i| Ractor.new(i) { |k| raise ArgumentError, "worker #{k}" } }
    msgs = rs.map do |r|
      result(r)
    rescue Ractor::RemoteError => e
      e.cause.message
    end
    assert_equal 8.times.map { |i| "worker #{i}" }, msgs
  end
end
