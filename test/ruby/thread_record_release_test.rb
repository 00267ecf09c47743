# A thread's record and the scheduler's record of it live and die together (helper ring21f tried
# putting the scheduler's record inside the thread's, for the ring's cache pairs, docs/PERFORMANCE.md "The
# 1,000-thread ring's pairs"), while the Thread object may be collected before the thread has
# finished its exit, right after it, or long after. What any layout must keep: a Thread whose
# object is gone never takes another thread's record with it, and threads still running, parked or
# ended keep their values, names and queues through collections of their dead siblings.
# Under ASan a record freed too early or twice is a report; under RUBY_MN_THREADS=0 the exiting
# switch ends on the thread's own native thread, after its object may already have been collected.

class ThreadRecordReleaseTest < MnTest::Case
  def test_threads_dropped_as_they_end_leave_their_siblings_intact
    keep = Array.new(20) { |i| q = Queue.new; [Thread.new { q.pop * 2 + i }, q] }
    6.times do |round|
      Array.new(100) { |i| Thread.new { i + round } }.each(&:join)   # dropped once joined
      Array.new(50) { |i| Thread.new { i } }                          # dropped while they may still run
      GC.start
    end
    keep.each_with_index { |(t, q), i| q << i }
    assert_equal (0...20).map { |i| i * 3 }, keep.map { |t, _| t.value }
  end

  def test_a_ring_survives_collections_of_ended_threads_between_laps
    n = 64
    queues = Array.new(n) { Queue.new }
    done = Queue.new
    ring = Array.new(n) do |i|
      inbox, outbox = queues[i], queues[(i + 1) % n]
      Thread.new do
        while (v = inbox.pop) >= 0
          if v == 0 then done << i else outbox << v - 1 end
        end
        i
      end
    end
    3.times do
      Array.new(30) { Thread.new { :churn } }.each(&:join)
      GC.start
      queues[0] << n * 5 - 1
      assert_equal n - 1, done.pop
    end
    queues.each { |q| q << -1 }
    assert_equal (0...n).to_a, ring.map(&:value)
  end

  def test_names_and_values_of_ended_threads_outlive_their_siblings_collection
    named = Array.new(30) { |i| t = Thread.new { "v#{i}" }; t.name = "t#{i}"; t }
    named.each(&:join)
    Array.new(200) { Thread.new { } }.each(&:join)
    GC.start
    assert_equal (0...30).map { |i| "v#{i}" }, named.map(&:value)
    assert_equal (0...30).map { |i| "t#{i}" }, named.map(&:name)
  end
end
