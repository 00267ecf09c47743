# The end of a ractor (Ruby 4.0's API): #value is for one ractor only, #join returns self, and
# `exit` inside a ractor ends that ractor alone, as an exception (more in ractor_exit_value_test.rb).

class RactorValueTest < MnTest::Case
  def setup
    skip "no Ractor#value before Ruby 3.5" unless Ractor.method_defined?(:value)
  end

  def test_only_the_first_ractor_that_asks_takes_the_value
    r = Ractor.new { "ok" }
    assert_equal "ok", r.value
    assert_equal "ok", r.value            # the successor may ask again
    other = Ractor.new(r) { |x| begin; x.value; :taken; rescue Ractor::Error => e; [e.class, e.message]; end }
    assert_equal [Ractor::Error, "Only the successor ractor can take a value"], other.value
  end

  def test_the_successor_may_be_another_ractor
    r = Ractor.new { :v }
    other = Ractor.new(r) { |x| x.value }
    assert_equal :v, other.value
    e = assert_raise(Ractor::Error) { r.value }
    assert_equal "Only the successor ractor can take a value", e.message
  end

  def test_join_returns_self
    r = Ractor.new { 1 }
    assert_same r, r.join
    assert_same r, r.join
    assert_equal 1, r.value
  end

  # A block that returns what cannot leave the ractor (a Mutex) ended normally: join returns self and
  # a monitor hears :exited. (CRuby hands the value itself over; mnrb copies values, so there #value
  # raises RemoteError whose cause is the copy error.)
  def test_join_returns_when_the_value_cannot_be_copied
    r = Ractor.new { Ractor.receive; Thread::Mutex.new }
    r.monitor(port = Ractor::Port.new)
    r << :go
    assert_same r, r.join
    assert_equal :exited, port.receive
    return unless mnrb?
    e = assert_raise(Ractor::RemoteError) { r.value }
    assert_kind_of Ractor::Error, e.cause
  end

  def test_join_raises_what_ended_the_ractor
    r = Ractor.new { raise "err" }
    e = assert_raise(Ractor::RemoteError) { r.join }
    assert_equal "err", e.cause.message
    assert_same r, e.ractor
  end

  def test_exit_ends_only_the_ractor
    r = Ractor.new { exit; :not_here }
    assert_equal SystemExit, assert_raise(Ractor::RemoteError) { r.value }.cause.class
    assert_equal SystemExit, assert_raise(Ractor::RemoteError) { r.join }.cause.class
    assert_equal true, r.inspect.include?("terminated")
    assert_equal 2, Ractor.new { exit 3 }.then { |x| x.join rescue 2 }   # the process lives on
  end

  def test_exit_in_a_thread_of_the_ractor
    r = Ractor.new { Thread.new { exit 1 }.join; :not_here }
    e = assert_raise(Ractor::RemoteError) { r.value }   # #join raises the thread's SystemExit in the ractor's main thread
    assert_equal [SystemExit, 1], [e.cause.class, e.cause.status]
  end

  def test_the_3x_take_after_exit
    r = Ractor.new { exit }
    assert_raise(Ractor::RemoteError) { r.join }
    e = assert_raise(Ractor::ClosedError) { r.take }
    assert_equal "The outgoing-port is already closed", e.message
  end

  def test_a_yield_reaches_a_taker_beside_a_thread_waiting_for_the_value
    mnrb_only   # no CRuby has both the 3.x take and 4.0's value
    r = Ractor.new { Ractor.yield 1; :end }
    t = Thread.new { r.value }
    Thread.pass until t.status == "sleep"
    assert_equal 1, r.take                 # the offer wakes every taker, not only the value waiter
    assert_equal :end, t.value
  end
end
