# External enumeration and Fiber switches (docs/PERFORMANCE.md, "Fibers on their own C stacks").
#   mnrb bench/fiber_next.rb [next|pingpong|memory|memory_c] [N]
# next:     e = (1..N).each; loop { e.next }           (N default 1,000,000)
# pingpong: N Fiber#resume / Fiber.yield round trips
# memory:   RSS per suspended Enumerator, N of them (default 10,000) after one #next each
#           (memory: [i, 1].each; memory_c: [i, 1].sort_by, a C method between fiber and yield)
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def rss_kb = File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i

mode = ARGV[0] || "next"
case mode
when "next"
  n = (ARGV[1] || 1_000_000).to_i
  e = (1..n).each
  t = now
  loop { e.next }
  printf("next %d: %.3f s\n", n, now - t)
when "pingpong"
  n = (ARGV[1] || 1_000_000).to_i
  f = Fiber.new { x = 0; loop { x = Fiber.yield(x + 1) } }
  t = now
  i = v = 0
  while i < n
    v = f.resume(v)
    i += 1
  end
  printf("pingpong %d: %.3f s\n", n, now - t)
when "memory", "memory_c"
  n = (ARGV[1] || 10_000).to_i
  GC.start
  before = rss_kb
  es = n.times.map { |i| e = mode == "memory" ? [i, 1].each : [i, 1].sort_by; e.next; e }
  GC.start
  printf("%s %d: %.1f KB each\n", mode, es.size, (rss_kb - before).fdiv(n))
end
