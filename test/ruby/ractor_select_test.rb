# Ractor.receive_if and Ractor.select(yield_value:, move:) (CRuby 3.x's Ractor docs), checked on
# CRuby 3.1 except where marked.

class RactorReceiveIfTest < MnTest::Case
  def test_takes_the_first_matching_message_and_keeps_the_others_in_order
    r = Ractor.new do
      n = Ractor.receive_if { |m| m.is_a?(Integer) }
      [n, Ractor.receive, Ractor.receive, Ractor.receive]
    end
    r << "a" << :b << 42 << "c"
    assert_equal [42, "a", :b, "c"], r.take
  end

  def test_waits_for_a_matching_message
    r = Ractor.new do
      got = Ractor.receive_if { |m| m == :wanted }
      [got, Ractor.receive]
    end
    r << :other
    r << :wanted
    assert_equal [:wanted, :other], r.take
  end

  def test_the_block_runs_in_the_receiver_and_returns_what_it_saw
    r = Ractor.new do
      seen = []
      m = Ractor.receive_if { |x| seen << x; x.start_with?("b") }
      [m.equal?(seen.last), seen, Ractor.current == Ractor.current, Ractor.receive]
    end
    r << "a" << "b"
    assert_equal [true, ["a", "b"], true, "a"], r.take
  end

  def test_each_message_is_tested_once
    r = Ractor.new do
      tested = Hash.new(0)
      got = Ractor.receive_if { |m| tested[m] += 1; m == 3 }
      [got, tested.values.max]
    end
    r << 1 << 2
    r << 3
    assert_equal [3, 1], r.take
  end

  def test_a_block_that_raises_leaves_the_message
    mnrb_only   # CRuby 3.1 loses the message and hangs in the next receive
    r = Ractor.new do
      err = begin
        Ractor.receive_if { |m| raise ArgumentError, "bad #{m}" }
      rescue ArgumentError => e
        e.message
      end
      [err, Ractor.receive]
    end
    r << "first"
    assert_equal ["bad first", "first"], r.take
  end

  def test_break_takes_the_message
    r = Ractor.new do
      b = Ractor.receive_if { |m| break [:broke, m] }
      [b, Ractor.receive]
    end
    r << 1 << 2
    assert_equal [[:broke, 1], 2], r.take
  end

  def test_needs_a_block
    assert_raise(ArgumentError) { Ractor.receive_if }
  end

  # Receiving again from inside the block (in its thread) is an error, not the next message nor a
  # wait; the message the block was shown stays for the call to take. Another thread may receive.
  def test_receiving_inside_the_block_raises
    Ractor.current.send(1)
    Ractor.current.send(2)
    seen = []
    got = Ractor.receive_if { |m| (Ractor.receive rescue seen << [$!.class, $!.message, m]); true }
    assert_equal 1, got
    got = Ractor.receive_if { |m| (Ractor.receive_if { true } rescue seen << [$!.class, m]); true }
    assert_equal 2, got
    assert_equal [[Ractor::Error, "can not call receive/receive_if recursively", 1], [Ractor::Error, 2]], seen
    Ractor.current.send(3)
    t = nil
    assert_equal 3, Ractor.receive_if { |m| t = Thread.new { Ractor.receive }; true }
    Ractor.current.send(4)
    assert_equal 4, t.value
  end

  def test_main_ractor_receive_if
    Ractor.new(Ractor.current) { |m| m << :x << :y }.take
    assert_equal :y, Ractor.receive_if { |m| m == :y }
    assert_equal :x, Ractor.receive
  end
end

class RactorSelectYieldTest < MnTest::Case
  def test_yield_value_is_taken
    r = Ractor.new(Ractor.current) { |main| main.take }
    assert_equal [:yield, nil], Ractor.select(yield_value: :hi)
    assert_equal :hi, r.take
  end

  def test_select_takes_or_yields_whichever_comes
    src = Ractor.new { Ractor.yield :from_src; :done }
    assert_equal [src, :from_src], Ractor.select(src, yield_value: :unused)
    taker = Ractor.new(Ractor.current) { |main| main.take }
    blocked = Ractor.new { Ractor.receive }   # never yields: only the taker can end the select
    assert_equal [:yield, nil], Ractor.select(blocked, yield_value: [1, 2])
    assert_equal [1, 2], taker.take
    blocked << :bye
    assert_equal :bye, blocked.take
    assert_equal :done, src.take
  end

  def test_yield_value_is_copied
    s = String.new("copy")
    r = Ractor.new(Ractor.current) { |main| main.take << "!" }
    Ractor.select(yield_value: s)
    assert_equal "copy!", r.take
    assert_equal "copy", s
  end

  def test_yield_value_moved
    s = String.new("moved")
    r = Ractor.new(Ractor.current) { |main| main.take }
    assert_equal [:yield, nil], Ractor.select(yield_value: s, move: true)
    assert_equal "moved", r.take
    assert_raise(Ractor::MovedError) { s.size }
  end

  def test_offer_from_a_ractor_to_several_takers
    producer = Ractor.new do
      3.times { |i| Ractor.select(yield_value: i) }
      :end
    end
    got = 3.times.map { producer.take }
    assert_equal [0, 1, 2], got
    assert_equal :end, producer.take
  end

  def test_an_argument_that_is_no_ractor_or_port
    skip "CRuby 4.0's message (3.x: 'Not a ractor object')" if RUBY_ENGINE == "ruby" && !defined?(Ractor::Port)
    e = assert_raise(ArgumentError) { Ractor.select(Ractor.current, 1) }
    # CRuby 4.0's Ractor.select (ractor.rb; ruby/spec's select_spec.rb says the same). mnrb wrote
    # CRuby 3.0's "should be a ractor object, but 1" until sem20j.
    assert_equal "should be Ractor::Port or Ractor", e.message
  end

  def test_no_arguments   # CRuby 4.0's message (3.x's: "specify at least one ractor or `yield_value`")
    e = assert_raise(ArgumentError) { Ractor.select }
    four = Ractor.method_defined?(:value)
    assert_equal four ? "specify at least one Ractor::Port or Ractor" : "specify at least one ractor or `yield_value`", e.message
  end

  def test_select_is_fair
    mnrb_only   # CRuby 3.1 looks at the sources in order (a later one starves); ports are Ruby 4.0
    a = Ractor::Port.new
    b = Ractor::Port.new
    300.times { |i| a << i; b << i }        # both always ready: the first listed must not win always
    counts = Hash.new(0)
    200.times { counts[Ractor.select(a, b)[0] == a ? :a : :b] += 1 }
    assert counts[:b] >= 50, "the later port chosen #{counts[:b]} times of 200"
    assert counts[:a] >= 50, "the first port chosen #{counts[:a]} times of 200"
  end
end
