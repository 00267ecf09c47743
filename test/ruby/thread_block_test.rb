# One block per thread (mrbgems/mnrb-thread/src/thread_block.h, mruby patch 0185): a thread's
# record, its scheduler record, its root context, first frames and VM stack are carved from one
# block, which lives until the Thread object, the scheduler and the thread's root Fiber have all let
# go; the frames and stack move to heap blocks when the thread's calls go deeper. What these check:
# blocks of ended threads are reused by new ones while parked deep threads, and root fibers kept
# past their thread's end, still read theirs. Under ASan (test/run-all.sh) a block let go too early
# or twice is a use after free or a double free; in a release build the values below go wrong.

class ThreadBlockTest < MnTest::Case
  # `depth` frames, each with a local its block reads (an env that must follow the stack when it
  # moves out of the block); parks at the bottom on `gate`, then sums what every frame sees.
  def down(depth, gate, tag)
    mine = depth * 7 + tag
    read = -> { mine }
    if depth == 0
      gate.pop
      read.call
    else
      down(depth - 1, gate, tag) + read.call
    end
  end

  def sum_for(depth, tag) = (0..depth).sum { |d| d * 7 + tag }

  # Parked threads at depths inside and past the placed frames (8) and stack (64 slots), while
  # waves of short threads, shallow and deep, end and are collected around them (their blocks go
  # back to the pool and are taken again by the next wave).
  def test_parked_threads_keep_their_frames_while_blocks_around_them_are_reused
    depths = [0, 1, 3, 6, 20, 120, 400]
    gates = depths.map { Queue.new }
    parked = depths.each_with_index.map { |d, i| Thread.new { down(d, gates[i], i) } }
    Thread.pass until parked.all? { |t| t.status == "sleep" }
    got = 0
    want = 0
    8.times do |wave|
      ths = Array.new(150) { |i| d = [0, 2, 9, 70, 250][i % 5]; Thread.new { down(d, Queue.new.tap { |q| q << 1 }, i) } }
      got += ths.sum(&:value)
      want += 150.times.sum { |i| sum_for([0, 2, 9, 70, 250][i % 5], i) }
      ths = nil
      GC.start
      parked.each_with_index do |t, i|
        assert_equal "sleep", t.status
        frames = t.backtrace.count { |l| l.include?("down") }
        assert frames > depths[i], "wave #{wave}, thread #{i}: #{frames} frames"
      end
    end
    assert_equal want, got
    gates.each { |g| g << :go }
    assert_equal depths.each_with_index.map { |d, i| sum_for(d, i) }, parked.map(&:value)
  end

  # The root fiber of a thread that went deep (its frames and stack moved out of the block) is
  # kept after the thread ended and its Thread object was collected: its context, still in the
  # block, must outlive both, while new threads take other blocks; then it is collected too.
  def test_root_fibers_of_deep_threads_outlive_them_through_reuse
    kept = Array.new(60) { |i| Thread.new { down(i % 3 == 0 ? 150 : i % 7, Queue.new.tap { |q| q << 1 }, i); Fiber.current }.value }
    GC.start
    total = 0
    4.times do
      total += Array.new(100) { |i| Thread.new { down(i % 4 * 30, Queue.new.tap { |q| q << 1 }, 0) } }.sum(&:value)
      GC.start
    end
    assert_equal 4 * 100.times.sum { |i| sum_for(i % 4 * 30, 0) }, total
    kept.each do |f|
      assert_equal false, f.alive?
      assert_raise(FiberError) { f.resume }
    end
    kept = nil
    GC.start
    assert_equal [1, 2], Array.new(2) { |i| Thread.new { i + 1 } }.map(&:value)
  end

  # Threads killed or raised into before they ever ran, and threads that end by an exception deep
  # down: each path lets go of its block's parts once.
  def test_threads_ended_early_or_deep_by_exceptions
    q = Queue.new
    3.times do
      early = Array.new(50) { Thread.new { q.pop } }
      early.each(&:kill)
      deep = Array.new(50) { |i| Thread.new { down(100 + i, Queue.new.tap { |g| g << 1 }, i); raise IndexError, "deep #{i}" } }
      deep.each { |t| t.report_on_exception = false }
      deep.each_with_index { |t, i| assert_equal "deep #{i}", assert_raise(IndexError) { t.join }.message }
      assert early.all? { |t| t.join.status == false }
      early = deep = nil
      GC.start
    end
    assert_equal 0, q.size
  end
end
