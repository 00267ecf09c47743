# Threads parked deep in their calls, through GC: a thread's VM context, frames and stack start
# small and move to bigger storage as its calls go deeper, while closures still point into the old
# stack, and the thread's fiber may be collected before or after the thread, or outlive it (helper
# ctx21 wrote these for a layout that kept the first frames inside the thread's record; the layout
# was not merged, the behaviour is what any layout must keep: docs/PERFORMANCE.md). Each case: deep
# recursion in many threads, GC while they are parked deep down, backtraces of parked threads,
# fibers inside threads, and Fiber.current of threads that have ended and been collected.

class ThreadContextEmbeddedTest < MnTest::Case
  # Recurses `depth` frames, each with locals of its own and a block that reads them (an env on the
  # stack that must follow the stack when it moves); parks in the deepest frame, then returns the
  # sum the frames see, which is only right if every frame's registers came through.
  def descend(depth, gate, tag)
    a = depth * 3 + tag
    b = -depth
    read = -> { a + b }
    if depth == 0
      gate.pop
      read.call
    else
      descend(depth - 1, gate, tag) + read.call
    end
  end

  def expected(depth, tag)
    (0..depth).sum { |d| d * 3 + tag - d }
  end

  def test_deep_threads_parked_through_gc_keep_frames_and_backtraces
    n = 40
    depth = 150
    gates = Array.new(n) { Queue.new }
    threads = Array.new(n) { |i| Thread.new { descend(depth, gates[i], i) } }
    Thread.pass until threads.all? { |t| t.status == "sleep" }
    GC.start
    threads.each_with_index do |t, i|
      bt = t.backtrace
      assert_kind_of Array, bt
      assert bt.count { |l| l.include?("descend") } > depth, "thread #{i}: #{bt.size} lines"
    end
    GC.start
    gates.each { |g| g << :go }
    threads.each_with_index { |t, i| assert_equal expected(depth, i), t.value }
  end

  # Each thread goes deep, comes back, parks shallow (its frames already moved out), then deeper
  # again: the grown storage is grown once more.
  def test_threads_growing_twice_with_gc_in_between
    n = 20
    gates = Array.new(n) { Queue.new }
    threads = Array.new(n) do |i|
      Thread.new do
        first = descend(40, Queue.new.tap { |q| q << 1 }, i)
        gates[i].pop
        [first, descend(300, gates[i], i)]
      end
    end
    Thread.pass until threads.all? { |t| t.status == "sleep" }
    GC.start
    gates.each { |g| g << :go }
    Thread.pass until threads.all? { |t| t.status == "sleep" || !t.alive? }
    GC.start
    gates.each { |g| g << :go }
    threads.each_with_index { |t, i| assert_equal [expected(40, i), expected(300, i)], t.value }
  end

  def test_fibers_inside_threads_go_deep_and_come_back
    q = Queue.new
    threads = Array.new(10) do |i|
      Thread.new do
        f = Fiber.new { Fiber.yield(descend(100, Queue.new.tap { |g| g << 1 }, i)); :done }
        a = f.resume
        q.pop
        [a, f.resume, descend(60, Queue.new.tap { |g| g << 1 }, i)]
      end
    end
    Thread.pass until threads.all? { |t| t.status == "sleep" }
    GC.start
    10.times { q << :go }
    threads.each_with_index { |t, i| assert_equal [expected(100, i), :done, expected(60, i)], t.value }
  end

  # Fiber.current of a thread is its root fiber; kept after the thread ended and its Thread object
  # was collected, it is a dead fiber, in whatever order the GC freed the two.
  def test_root_fiber_outlives_its_collected_thread
    kept = []
    rounds = 5
    rounds.times do
      ths = Array.new(40) { |i| Thread.new { f = Fiber.current; i.even? ? f : nil } }
      ths.each { |t| f = t.value; kept << f if f }
      ths = nil
      GC.start
    end
    3.times { GC.start }
    assert_equal rounds * 20, kept.size
    kept.each do |f|
      assert_equal false, f.alive?
      assert_raise(FiberError) { f.resume }
    end
    kept = nil
    GC.start
  end

  # Many short threads, shallow and deep, ended and collected while others start: the records and
  # whatever their contexts grew are freed (the ASan run of this file sees a double free or a use
  # after free here if the context's owner and its fiber disagree).
  def test_churn_of_threads_shallow_and_deep
    total = 0
    10.times do |r|
      ths = Array.new(30) { |i| Thread.new { i.odd? ? descend(80 + r, Queue.new.tap { |g| g << 1 }, i) : i } }
      total += ths.sum(&:value)
      GC.start if r.even?
    end
    want = 10.times.sum { |r| 30.times.sum { |i| i.odd? ? expected(80 + r, i) : i } }
    assert_equal want, total
  end
end
