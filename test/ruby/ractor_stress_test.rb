# Randomized: many ractors forward numbered messages to random peers; every message is counted
# exactly once at the end (nothing lost, nothing duplicated). The seed is printed on failure.

class RactorStressTest < MnTest::Case
  WORKERS = 8
  MESSAGES = 400

  def test_messages_between_many_ractors_are_neither_lost_nor_duplicated
    seed = (Process.clock_gettime(Process::CLOCK_MONOTONIC) * 1000).to_i % 100_000
    collector = Ractor.new(MESSAGES) do |total|
      seen = Hash.new(0)
      total.times { seen[Ractor.receive] += 1 }
      seen
    end
    workers = WORKERS.times.map do |i|
      Ractor.new(collector, i, seed) do |sink, me, s|
        peers = Ractor.receive
        rnd = Random.new(s + me)
        loop do
          msg = Ractor.receive
          break if msg == :stop
          id, hops = msg
          if hops == 0
            sink << id
          else
            peers[rnd.rand(peers.size)] << [id, hops - 1]
          end
        end
        :stopped
      end
    end
    workers.each { |w| w << workers }
    rnd = Random.new(seed)
    MESSAGES.times { |id| workers[rnd.rand(WORKERS)] << [id, rnd.rand(6)] }
    seen = collector.take
    workers.each { |w| w << :stop }
    assert_equal [:stopped] * WORKERS, workers.map(&:take)
    assert_equal MESSAGES, seen.size, "seed #{seed}: #{MESSAGES - seen.size} lost"
    assert seen.values.all? { |n| n == 1 }, "seed #{seed}: duplicated #{seen.select { |_, n| n > 1 }.keys}"
    assert_equal (0...MESSAGES).to_a, seen.keys.sort
  end

  def test_many_senders_one_receiver_keep_per_sender_order
    receiver = Ractor.new(6 * 200) do |n|
      last = Hash.new(-1)
      ok = true
      n.times do
        from, i = Ractor.receive
        ok = false unless i == last[from] + 1
        last[from] = i
      end
      [ok, last.values.sort]
    end
    senders = 6.times.map { |s| Ractor.new(receiver, s) { |r, me| 200.times { |i| r << [me, i] }; :sent } }
    assert_equal [:sent] * 6, senders.map(&:take)
    ok, lasts = receiver.take
    assert ok, "a sender's messages arrived out of order"
    assert_equal [199] * 6, lasts
  end

  def test_creating_and_ending_many_ractors
    results = 100.times.map { |i| Ractor.new(i) { |x| x + 1 } }.map(&:take)
    assert_equal (1..100).to_a, results
  end
end
