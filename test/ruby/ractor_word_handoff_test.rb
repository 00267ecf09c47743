# Ractor#send hands nil, true, false and fixnums to a thread waiting in Ractor.receive as the value
# itself, with no message (mrbgems/mnrb-ractor/src/ractor.c, wait.c: their word means the same in
# every state), and makes a message of them only when they have to be queued. Everything else is
# copied as before: Symbols (a dynamic Symbol's number differs between states), Integers beyond a
# fixnum (boxed, in the sender's heap), Floats, objects. These tests send each kind to a receiver
# that waits and to one that is busy (queued), mixed, in order, moved or copied.

class RactorWordHandoffTest < MnTest::Case
  VALUES = [nil, true, false, 0, 1, -1, 42, 2**40, -(2**40), 2**61, 2**62 - 1, -(2**62), 2**62,
            -(2**62) - 1, 2**63, 2**64 + 7, -(2**70), 1.5, -0.0, 1e300, 2.0**-1070, :stop, :send,
            "str", [1, nil, :a], 3r].freeze

  # An echo ractor waits in Ractor.receive when each value comes (the main ractor waits for the
  # echo before sending the next): each comes back equal and of its class.
  def test_values_to_a_waiting_receiver
    echo = Ractor.new(Ractor.current) do |main|
      loop do
        v = Ractor.receive
        main.send [v, v.class.name]
        break if v == :done
      end
    end
    VALUES.each do |v|
      echo.send v
      got, klass = Ractor.receive
      assert_equal [v, v.class.name], [got, klass], "sent #{v.inspect}"
    end
    echo.send :done
    assert_equal [:done, "Symbol"], Ractor.receive
  end

  # Symbols made at run time (numbered in the sender's state only) to a waiting receiver, which
  # compares their names with what the sender says they are.
  def test_dynamic_symbols
    r = Ractor.new(Ractor.current) do |main|
      bad = []
      while (pair = Ractor.receive) != :done
        name = pair
        sym = Ractor.receive
        bad << [name, sym] unless sym.is_a?(Symbol) && sym.to_s == name
      end
      main.send bad
    end
    30.times do |i|
      name = "dyn_#{i}_#{rand(1 << 30)}"
      r.send name
      r.send name.to_sym
    end
    r.send :done
    assert_equal [], Ractor.receive
  end

  # A receiver busy in Ractor.yield while everything is sent finds it all queued, in order: words
  # made into messages at the queue, mixed with copied objects, words sent with move: true too.
  def test_queued_words_in_order
    r = Ractor.new(Ractor.current) do |main|
      Ractor.yield :busy                               # not in receive: every send below queues
      got = []
      while (v = Ractor.receive) != :end
        got << v
      end
      main.send got
    end
    sent = Array.new(200) { |i| VALUES[i % VALUES.size] == :end ? i : VALUES[i % VALUES.size] }
    sent.each do |v|
      word = v.nil? || v == true || v == false || v.is_a?(Integer)
      word ? r.send(v, move: true) : r.send(v)
    end
    r.send :end
    assert_equal :busy, r.take
    assert_equal sent, Ractor.receive
  end

  # A chain of ractors each adding 1 to a fixnum and forwarding it: every hop is a word hand-off
  # (or a queued word when the next one is not waiting yet); the sum comes out exact.
  def test_chain_of_words
    last = Ractor.current
    prev = last
    8.times do
      prev = Ractor.new(prev) do |nx|
        while (v = Ractor.receive) != :stop
          nx.send(v.nil? ? nil : v + 1)
        end
        nx.send :stop
      end
    end
    total = 0
    300.times do |i|
      prev.send i
      total += Ractor.receive
    end
    prev.send nil
    assert_equal nil, Ractor.receive
    prev.send :stop
    assert_equal :stop, Ractor.receive
    assert_equal (0...300).sum + 300 * 8, total
  end
end
