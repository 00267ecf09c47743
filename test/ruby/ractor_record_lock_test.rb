# A ractor's record (mrbgems/mnrb-ractor/src/internal.h) is guarded by one lock, which every ractor
# touching it takes: senders (the incoming queue, or the hand-off to a waiting receiver), the
# receiver's own receive and receive_if (the queue and its waiter), Ractor.yield and #take (the
# yielders and takers lists). Helper hop20i made that lock a spinlock (an exchange and a store)
# instead of a pthread mutex; these tests put many ractors on one record's lock at once and count
# every message: a lock that let two holders in loses, duplicates or reorders messages, or breaks a
# list (a hang or a crash).

class RactorRecordLockTest < MnTest::Case
  def value_of(r) = r.respond_to?(:value) ? r.value : r.take

  # Six senders to one receiver, which alternates Ractor.receive and Ractor.receive_if and every 100
  # messages offers a count with Ractor.yield, taken by the main ractor meanwhile. Odd messages are
  # Integers (the hand-off of a word, no message), even ones Arrays (a message copied out). Each
  # sender's messages must arrive once, in order.
  def test_senders_receive_if_and_takers_on_one_record
    n, per, every = 6, 400, 100
    sink = Ractor.new(n, per, every) do |n, per, every|
      last = Array.new(n, -1)
      bad = []
      (n * per).times do |k|
        m = k.even? ? Ractor.receive : Ractor.receive_if { |x| x.is_a?(Integer) || x.is_a?(Array) }
        from, i = m.is_a?(Integer) ? m.divmod(100_000) : m
        bad << [from, i, last[from]] unless i == last[from] + 1
        last[from] = i
        Ractor.yield(k + 1) if (k + 1) % every == 0
      end
      [last, bad]
    end
    senders = n.times.map do |s|
      Ractor.new(sink, s, per) do |r, me, per|
        per.times { |i| r.send(i.odd? ? me * 100_000 + i : [me, i]) }
        :sent
      end
    end
    counts = (n * per / every).times.map { sink.take }
    assert_equal (1..n * per / every).map { |c| c * every }, counts
    assert_equal [:sent] * n, senders.map { |s| value_of(s) }
    last, bad = value_of(sink)
    assert_equal [], bad.first(5), "messages out of order or twice: [sender, index, previous]"
    assert_equal [per - 1] * n, last
  end

  # A ring of pairs hammering each other's records: each of 8 ractors sends to the next and receives
  # from the previous, all at once (every record's lock taken by its owner and by one sender), while
  # the main ractor also sends to all of them. Sums check that nothing was lost or duplicated.
  def test_ring_with_an_extra_sender_per_record
    n, laps = 8, 300
    main = Ractor.current
    rs = n.times.map do |i|
      Ractor.new(main, laps, i) do |main, laps, me|
        nx = Ractor.receive_if { |x| x.is_a?(Ractor) }   # the previous one may send first
        sum = 0
        # laps from the previous ractor, laps from main: both arrive, in any interleaving
        laps.times { |j| nx.send(j) }
        (2 * laps).times { sum += Ractor.receive }
        main.send [me, sum]
        :done
      end
    end
    rs.each_with_index { |r, i| r.send rs[(i + 1) % n] }
    rs.each { |r| laps.times { |j| r.send(j + 1_000) } }
    sums = n.times.map { Ractor.receive }.sort
    per = (0...laps).sum + (0...laps).sum { |j| j + 1_000 }
    assert_equal n.times.map { |i| [i, per] }, sums
    assert_equal [:done] * n, rs.map { |r| value_of(r) }
  end
end
