# Short-lived allocations beside a large live heap (issue 22): N iterations that each allocate a
# two-element Array (dead at once) and call a method with a block made before the heap grew,
# beside L live Strings, for several L. A GC whose costs follow the young generation keeps the time
# per iteration flat as L grows. mruby 3.3 searched every heap page at each return from a frame
# with a block and swept every page with a free slot at each minor collection: the loop grew with
# L (kostya/benchmarks' generate_json: 99 s for 524k records).
#   bin/mnrb bench/gc_live_heap.rb [N]      ruby bench/gc_live_heap.rb [N]
n = (ARGV[0] || 1_000_000).to_i
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
def yielder = yield
blk = proc { 1 }
base = nil
[0, 300_000, 1_000_000, 3_000_000].each do |l|
  live = Array.new(l) { |i| "live #{i}" }
  GC.start
  s0 = GC.stat
  t = clock.()
  i = 0
  while i < n
    a = [i, i]
    yielder(&blk)
    i += 1
  end
  dt = clock.() - t
  s1 = GC.stat
  ns = dt * 1e9 / n
  base ||= ns
  swept = s1[:swept_slots] ? format(", %.2f slots swept per iteration", (s1[:swept_slots] - s0[:swept_slots]).fdiv(n)) : ""
  printf("L=%9d live: %7.1f ns per iteration (%.2fx L=0), %d minor / %d major GCs%s\n",
         l, ns, ns / base, s1[:minor_gc_count] - s0[:minor_gc_count], s1[:major_gc_count] - s0[:major_gc_count], swept)
  live = nil
end
