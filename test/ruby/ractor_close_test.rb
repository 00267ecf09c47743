# Issue 20: Ractor#close as CRuby 4.0 defines it (ractor.rb: `default_port.close`): it closes the
# ractor's default port, which only the ractor itself may do (Port#close's Ractor::Error otherwise);
# sending to the ractor then raises Ractor::ClosedError, and its own Ractor.receive takes what came
# before the close, then raises ClosedError (CRuby's bootstraptest/test_ractor.rb, "Raise
# Ractor::ClosedError when try to send into a ractor with closed default port"). CRuby 3.1 has no
# Ractor#close (close_incoming there): these follow CRuby 4.0's documentation.
class RactorCloseTest < MnTest::Case
  def setup
    skip "Ractor#close is CRuby 3.5's" unless Ractor.method_defined?(:value)   # its 4.0 API beside it
  end

  def result(r) = Ractor.method_defined?(:value) ? r.value : r.take

  def test_sending_to_a_ractor_that_closed_its_default_port_raises_closed_error
    r = Ractor.new do
      Ractor.current.close
      Ractor.main << :closed
      Ractor.receive
    rescue Ractor::ClosedError
      :receive_refused
    end
    assert_equal :closed, Ractor.receive
    assert_raise(Ractor::ClosedError) { r.send(1) }
    assert_raise(Ractor::ClosedError) { r << 1 }
    assert_equal :receive_refused, result(r)
  end

  def test_messages_sent_before_the_close_are_still_received
    r = Ractor.new do
      Ractor.receive                     # :go: the two below came before it
      Ractor.current.close
      [Ractor.current.default_port.closed?, Ractor.receive, Ractor.receive,
       begin; Ractor.receive; rescue Ractor::ClosedError; :then_closed; end]
    end
    r << :go << 1 << 2
    assert_equal [true, 1, 2, :then_closed], result(r)
  end

  def test_only_the_ractor_itself_may_close_it
    r = Ractor.new { Ractor.receive }
    e = assert_raise(Ractor::Error) { r.close }
    assert_equal "closing port by other ractors is not allowed", e.message
    r << :still_open
    assert_equal :still_open, result(r)
  end

  def test_closing_twice_is_allowed_and_the_ractor_ends
    r = Ractor.new { Ractor.current.close; Ractor.current.close; :ended }
    assert_equal :ended, result(r)
    assert_equal 1, Ractor.count
  end
end
