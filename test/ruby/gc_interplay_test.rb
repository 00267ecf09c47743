# The GC must see everything suspended threads hold: VM registers, Fibers they parked inside,
# objects in flight in a Queue hand-off. Run with tiny timeslices, these catch a missing write
# barrier or root (the symptom is a wrong value or a crash, never a clean failure elsewhere).

class GcInterplayTest < MnTest::Case
  def churn
    5.times { Array.new(2000) { "garbage" * 3 }; GC.start }
  end

  def test_thread_parked_inside_a_fiber_keeps_its_objects
    q = Queue.new
    t = Thread.new do
      f = Fiber.new do
        s = "fiber-" + "local"
        v = q.pop
        Fiber.yield s + v
        :second
      end
      [f.resume, f.resume]
    end
    wait_until("parked in the fiber") { t.stop? }
    churn
    q << "!"
    assert_equal ["fiber-local!", :second], t.value
  end

  def test_suspended_threads_keep_their_locals_across_collections
    release = Queue.new
    threads = 200.times.map { |i| Thread.new { s = "v#{i}" * 2; release.pop; s } }
    wait_until("all parked") { release.num_waiting == 200 }
    churn
    200.times { release << 1 }
    values = threads.map(&:value)
    assert_equal "v7v7", values[7]
    assert_equal 200, values.uniq.size
  end

  def test_values_handed_through_queues_survive_collections
    q = Queue.new
    consumers = 50.times.map { Thread.new { Array.new(3) { q.pop } } }
    wait_until("consumers waiting") { q.num_waiting == 50 }
    150.times do |i|
      q << "item-#{i}" * 2
      GC.start if i % 10 == 0
    end
    items = consumers.flat_map(&:value)
    assert_equal 150, items.uniq.size
    assert items.all? { |s| s.start_with?("item-") }
  end

  def test_object_space_walk_beside_running_threads
    busy = 3.times.map { Thread.new { 100_000.times { |i| i * 2 }; :done } }
    n = 0
    ObjectSpace.each_object(String) { n += 1 }
    assert_equal [:done] * 3, busy.map(&:value)
    assert n > 0
  end

  # mruby patch 0011: a state's first heap pages are small, so a fresh ractor's heap ends near what
  # it boots (~1,900 objects), not at three 1,024-slot pages; later pages are full size, and a heap
  # mixing both sizes collects and walks right.
  def test_a_fresh_heap_is_small_and_a_big_one_mixes_page_sizes
    mnrb_only
    slots = Ractor.new { GC.start; ObjectSpace.count_objects[:TOTAL] }.take
    assert slots < 3072, "a fresh ractor's heap has #{slots} slots"
    r = Ractor.new do
      keep = Array.new(50_000) { |i| "s#{i}" }
      3.times { Array.new(20_000) { "garbage" }; GC.start }
      counts = ObjectSpace.count_objects
      strings = 0
      ObjectSpace.each_object(String) { strings += 1 }
      [keep.size, keep.last, counts[:TOTAL] >= counts[:FREE] + 50_000, strings >= 50_000]
    end
    assert_equal [50_000, "s49999", true, true], r.take
  end
end
