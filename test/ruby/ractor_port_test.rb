# Ractor::Port, Ractor#default_port, #monitor and #unmonitor: Ruby 4.0 API (ractor.rb's docs), so
# every test here skips on CRuby 3.1.

module RactorPort4
  def setup_port4
    skip "Ractor::Port is Ruby 4.0" unless Ractor.const_defined?(:Port)
  end
end

class RactorPortTest < MnTest::Case
  include RactorPort4

  def test_inspect_names_the_owner_and_the_id
    setup_port4
    a = Ractor::Port.new
    b = Ractor::Port.new
    assert(/\A#<Ractor::Port to:#1 id:\d+>\z/ =~ a.inspect, a.inspect)
    assert_equal a.inspect[/id:(\d+)/, 1].to_i + 1, b.inspect[/id:(\d+)/, 1].to_i
    r = Ractor.new { Ractor::Port.new.inspect }
    assert_equal "#<Ractor::Port to:##{r.inspect[/#(\d+)/, 1]} id:1>", r.value
  end

  def test_send_and_receive_keep_the_order
    setup_port4
    port = Ractor::Port.new
    r = Ractor.new(port) do |pt|
      same = pt.send(1).equal?(pt)
      pt << "two"
      pt.send([3, { four: 4 }])
      same
    end
    assert_equal 1, port.receive
    assert_equal "two", port.receive
    assert_equal [3, { four: 4 }], port.receive
    assert_equal true, r.value
  end

  def test_many_senders_one_port
    setup_port4
    port = Ractor::Port.new
    rs = 4.times.map { |i| Ractor.new(port, i) { |pt, n| 25.times { |k| pt << [n, k] } } }
    got = 100.times.map { port.receive }
    rs.each(&:join)
    4.times { |n| assert_equal (0...25).to_a, got.select { |m, _| m == n }.map { |_, k| k } }
  end

  def test_a_port_travels_by_reference
    setup_port4
    port = Ractor::Port.new
    r = Ractor.new(port) { |pt| Ractor.receive == pt }
    r << port
    assert_equal true, r.value
    assert Ractor.shareable?(port)
    assert_same port, Ractor.make_shareable(port)
    assert port.frozen?
  end

  def test_only_the_creator_receives
    setup_port4
    port = Ractor::Port.new
    r = Ractor.new(port) do |pt|
      begin
        pt.receive
      rescue Ractor::Error => e
        [e.class, e.message]
      end
    end
    assert_equal [Ractor::Error, "only allowed from the creator Ractor of this port"], r.value
  end

  def test_a_port_made_in_a_ractor_receives_there
    setup_port4
    r = Ractor.new do
      pt = Ractor::Port.new
      Ractor.main.send(pt)
      pt.receive * 2
    end
    pt = Ractor.receive
    pt << 21
    assert_equal 42, r.value
  end

  def test_receive_waits_for_a_message
    setup_port4
    port = Ractor::Port.new
    t = Thread.new { port.receive }
    wait_until("the receiver to wait") { t.status == "sleep" }
    Ractor.new(port) { |pt| pt << :late }.join
    assert_equal :late, t.value
  end

  def test_move_through_a_port
    setup_port4
    port = Ractor::Port.new
    r = Ractor.new(port) do |pt|
      s = "moved"
      pt.send(s, move: true)
      begin
        s.upcase
      rescue Ractor::MovedError
        :moved
      end
    end
    assert_equal "moved", port.receive
    assert_equal :moved, r.value
  end
end

class RactorPortCloseTest < MnTest::Case
  include RactorPort4

  def test_close_refuses_sends_and_drains_then_raises
    setup_port4
    port = Ractor::Port.new
    port << 1 << 2
    assert_equal false, port.closed?
    port.close
    assert_equal true, port.closed?
    e = assert_raise(Ractor::ClosedError) { port << 3 }
    assert_equal "The port was already closed", e.message
    assert_equal 1, port.receive
    assert_equal 2, port.receive
    e = assert_raise(Ractor::ClosedError) { port.receive }
    assert_equal "The port was already closed", e.message
  end

  def test_sending_to_a_closed_port_from_another_ractor
    setup_port4
    port = Ractor::Port.new
    port.close
    r = Ractor.new(port) { |pt| begin; pt << 1; :sent; rescue Ractor::ClosedError => e; e.message; end }
    assert_equal "The port was already closed", r.value
  end

  def test_only_the_creator_closes
    setup_port4
    port = Ractor::Port.new
    r = Ractor.new(port) { |pt| begin; pt.close; rescue Ractor::Error => e; [e.class, e.message]; end }
    assert_equal [Ractor::Error, "closing port by other ractors is not allowed"], r.value
    assert_equal false, port.closed?
  end

  def test_close_wakes_a_waiting_receiver
    setup_port4
    port = Ractor::Port.new
    t = Thread.new { begin; port.receive; rescue Ractor::ClosedError; :closed; end }
    wait_until("the receiver to wait") { t.status == "sleep" }
    port.close
    assert_equal :closed, t.value
  end

  def test_a_ractor_that_ends_closes_its_ports
    setup_port4
    r = Ractor.new { Ractor::Port.new }
    port = r.value
    assert_equal true, port.closed?
    assert_raise(Ractor::ClosedError) { port.send("test") }
  end

  def test_messages_left_in_an_ended_ractors_port_are_dropped
    setup_port4
    r = Ractor.new do
      pt = Ractor::Port.new
      pt << [pt, "kept"]                 # a message naming its own port: dropped with it
      Ractor.main << pt
      Ractor.receive
    end
    pt = Ractor.receive
    pt << "more"
    r << :go
    r.join
    assert_raise(Ractor::ClosedError) { pt << "after" }
  end
end

class RactorDefaultPortTest < MnTest::Case
  include RactorPort4

  def test_default_port_is_id_zero
    setup_port4
    assert_equal "#<Ractor::Port to:#1 id:0>", Ractor.current.default_port.inspect
    assert_equal Ractor.current.default_port, Ractor.main.default_port
  end

  def test_default_port_feeds_ractor_receive
    setup_port4
    r = Ractor.new { [Ractor.receive, Ractor.current.default_port.receive] }
    r.default_port << :a
    r.send(:b)
    assert_equal [:a, :b], r.value
  end

  def test_default_port_of_another_ractor_is_not_received_from
    setup_port4
    r = Ractor.new { Ractor.receive }
    e = assert_raise(Ractor::Error) { r.default_port.receive }
    assert_equal "only allowed from the creator Ractor of this port", e.message
    r << :done
    r.join
    assert_equal true, r.default_port.closed?
  end

  # ruby/spec's 4.0 specs (core/ractor/close_spec.rb, shared/receive.rb, shared/send.rb): one default
  # port object, which #close returns; receiving and sending after it raise the port's error. mnrb
  # made a new port object at each #default_port and wrote 3.x's messages until sem20j.
  def test_close_returns_the_one_default_port
    setup_port4
    r = Ractor.new do
      port = Ractor.current.close
      [port.equal?(Ractor.current.default_port), port.closed?]
    end
    assert_equal [true, true], r.value
    assert_same Ractor.current.default_port, Ractor.current.default_port
  end

  def test_receive_and_send_after_close_raise_the_port_s_error
    setup_port4
    r = Ractor.new do
      Ractor.current.close
      Ractor.main.send(:closed)
      begin
        Ractor.receive
      rescue Ractor::ClosedError => e
        e.message
      end
    end
    assert_equal :closed, Ractor.receive
    e = assert_raise(Ractor::ClosedError) { r.send(:message) }
    assert_equal "The port was already closed", e.message
    assert_equal "The port was already closed", r.value
  end
end

class RactorMonitorTest < MnTest::Case
  include RactorPort4

  def test_exited
    setup_port4
    port = Ractor::Port.new
    r = Ractor.new { Ractor.receive }
    r.monitor(port)
    r << 1
    assert_equal :exited, port.receive
  end

  def test_aborted
    setup_port4
    port = Ractor::Port.new
    r = Ractor.new { Ractor.receive; raise "boom" }
    r.monitor(port)
    r << 1
    assert_equal :aborted, port.receive
    assert_raise(Ractor::RemoteError) { r.join }
  end

  def test_monitoring_an_ended_ractor_tells_at_once
    setup_port4
    r = Ractor.new { 1 }
    r.join
    port = Ractor::Port.new
    r.monitor(port)
    assert_equal :exited, port.receive
    bad = Ractor.new { raise "x" }
    assert_raise(Ractor::RemoteError) { bad.join }
    bad.monitor(port)
    assert_equal :aborted, port.receive
  end

  def test_every_monitor_is_told
    setup_port4
    r = Ractor.new { Ractor.receive }
    ports = 3.times.map { Ractor::Port.new }
    ports.each { |pt| r.monitor(pt) }
    watcher = Ractor.new(r) { |rr| pt = Ractor::Port.new; rr.monitor(pt); pt.receive }
    r << :go
    assert_equal [:exited] * 3, ports.map(&:receive)
    assert_equal :exited, watcher.value
  end

  def test_unmonitor
    setup_port4
    r = Ractor.new { Ractor.receive }
    dropped = Ractor::Port.new
    kept = Ractor::Port.new
    r.monitor(dropped)
    r.monitor(kept)
    assert_same r, r.unmonitor(dropped)
    r << :go
    assert_equal :exited, kept.receive
    dropped << :marker                  # an :exited sent to it would have come first
    assert_equal :marker, dropped.receive
  end

  def test_monitor_needs_a_port
    setup_port4
    r = Ractor.new { 1 }
    assert_raise(TypeError) { r.monitor(:not_a_port) }
    r.join
  end
end

class RactorSelectPortsTest < MnTest::Case
  include RactorPort4

  def test_select_returns_the_port_that_got_a_message
    setup_port4
    a = Ractor::Port.new
    b = Ractor::Port.new
    Ractor.new(b) { |pt| pt << :to_b }.join
    port, msg = Ractor.select(a, b)
    assert_equal b, port
    assert_equal :to_b, msg
  end

  def test_select_waits_on_every_port
    setup_port4
    ports = 3.times.map { Ractor::Port.new }
    t = Thread.new { Ractor.select(*ports) }
    wait_until("the select to wait") { t.status == "sleep" }
    Ractor.new(ports[2]) { |pt| pt << "last" }.join
    assert_equal [ports[2], "last"], t.value
  end

  def test_select_over_a_closed_empty_port_raises
    setup_port4
    a = Ractor::Port.new
    a.close
    assert_raise(Ractor::ClosedError) { Ractor.select(a) }
  end

  def test_select_over_a_port_of_another_ractor_raises
    mnrb_only   # the error for a foreign port is mnrb's choice (the one of Port#receive)
    q = Ractor.new { Ractor::Port.new }.value
    e = assert_raise(Ractor::Error) { Ractor.select(q) }
    assert_equal "only allowed from the creator Ractor of this port", e.message
  end
end
