# The generational GC beside a large live heap (issue 22, patches/mruby/0043): a minor collection
# costs what the young generation costs, not what the heap holds; objects stored into old ones
# survive minor collections; the heap gives back what a dead structure left. Each test can fail:
# a minor sweep that skips a page holding young objects frees live ones (wrong values below), and
# one that visits every page, or a page search per block return, makes the loops grow with the
# heap. Passes on CRuby 3.1 too (the count-based check uses mnrb's GC.stat(:swept_slots)).

class GcGenerationalTest < MnTest::Case
  # In a fresh process (a heap of its own): CPU nanoseconds per iteration of a loop that allocates
  # and calls a method with a block made before the heap grew, best of 5, alone and then beside 1.5M
  # live Strings. The process's CPU time, not the wall clock: on a busy machine a 10 ms loop often
  # waits for a CPU, and the wall clock then read up to 4.5x for a heap that costs nothing.
  LIVE_HEAP_PROBE = <<~'RUBY'
    def clock = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    def yielder = yield
    BLK = proc { 1 }
    def per_iteration(n)
      (1..5).map do
        t = clock
        i = 0
        while i < n
          a = [i, i]
          yielder(&BLK)
          i += 1
        end
        (clock - t) * 1e9 / n
      end.min
    end
    per_iteration(20_000)
    small = per_iteration(100_000)
    live = Array.new(1_500_000) { |i| "live #{i}" }
    large = per_iteration(100_000)
    print small, " ", large, " ", live[7]
  RUBY

  def test_a_large_live_heap_does_not_slow_short_lived_allocation
    out = IO.popen([RbConfig.ruby, "-e", LIVE_HEAP_PROBE]) { |io| io.read }
    small, large, probe = out.split
    assert_equal "live", probe
    # mruby 3.3 searched the heap's pages, newest first, at each return from a frame with a block:
    # for a block older than 1.5M live objects (~1,500 pages) an iteration cost about 10x more.
    # Time per iteration may vary with the caches, not with the heap's size.
    assert large.to_f < small.to_f * 4, "#{large.to_f.round} ns per iteration beside 1.5M live objects, #{small.to_f.round} ns alone"
  end

  def test_minor_collections_sweep_only_the_pages_holding_young_objects
    skip "GC.stat(:swept_slots) is mnrb's" unless GC.stat.key?(:swept_slots)
    # A sparse old heap: 600,000 Strings of which every eighth stays, so every page has room.
    keep = Array.new(600_000) { |i| "s#{i}" }.each_slice(8).map(&:first)
    GC.start
    s0 = GC.stat
    i = 0
    while i < 400_000
      a = [i]
      i += 1
    end
    s1 = GC.stat
    minors = s1[:minor_gc_count] - s0[:minor_gc_count]
    assert minors >= 1, "no minor collection ran"
    swept = s1[:swept_slots] - s0[:swept_slots]
    # Whole-heap minor sweeps would visit every slot of the sparse heap each time.
    assert swept < minors * s1[:heap_available_slots] / 2,
           "#{swept} slots swept in #{minors} minor collections of a #{s1[:heap_available_slots]}-slot heap"
    assert_equal "s8", keep[1]
  end

  def test_young_objects_stored_into_old_containers_survive_minor_collections
    ary = Array.new(50_000) { |i| "old #{i}" }
    hash = {}
    obj = Object.new
    GC.start   # all of them old now
    200_000.times do |i|
      junk = [i.to_s, i.to_s]   # garbage that fills pages and triggers minor collections
      if i % 10 == 0
        ary[i % 50_000] = "new #{i}"
        hash[i] = "h#{i}"
        obj.instance_variable_set(:@last, "iv#{i}")
      end
    end
    assert_equal "new 199990", ary[199_990 % 50_000]
    assert_equal "old 1", ary[1]
    assert_equal 20_000, hash.size
    assert_equal "h123450", hash[123_450]
    assert_equal "iv199990", obj.instance_variable_get(:@last)
    assert hash.all? { |k, v| v == "h#{k}" }
  end

  def test_the_heap_gives_back_the_pages_of_a_dead_structure
    skip "CRuby keeps freed pages its own way" unless RUBY_ENGINE == "mnrb"
    GC.start
    before = GC.stat(:heap_available_slots)
    big = Array.new(1_000_000) { |i| [i] }
    peak = GC.stat(:heap_available_slots)
    big = nil
    GC.start
    after = GC.stat(:heap_available_slots)
    assert peak > before + 900_000
    assert after < before + (peak - before) / 2, "#{after} slots after freeing #{peak - before}"
  end
end
