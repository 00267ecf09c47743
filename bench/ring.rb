# The seed's ring: N threads, each with a Queue; a token goes LAPS times around (N*LAPS hand-offs).
# Thread creation is timed separately and excluded from the ring time, as in the seed.
#   mnrb bench/ring.rb [N] [LAPS] [REPS] [shuffled]
# The seed's ring passes the token in creation order, so each hop's memory is the last hop's plus
# one thread's stride, which the hardware prefetcher learns (docs/PERFORMANCE.md, ring21f).
# "shuffled" passes it along a fixed random cycle instead (the same one as bench/go's -shuffled:
# Fisher-Yates driven by the 31-bit LCG x = (x * 1103515245 + 12345) mod 2**31 from x = 42).
n = (ARGV[0] || 10_000).to_i
laps = (ARGV[1] || 1_000).to_i
reps = (ARGV[2] || 1).to_i
shuffled = ARGV[3] == "shuffled"
succ = Array.new(n) { |i| (i + 1) % n }
if shuffled
  order = Array.new(n) { |i| i }
  x = 42
  (n - 1).downto(1) do |i|
    x = (x * 1103515245 + 12345) % 2147483648
    j = x % (i + 1)
    order[i], order[j] = order[j], order[i]
  end
  n.times { |k| succ[order[k]] = order[(k + 1) % n] }
end
clock = Process::CLOCK_MONOTONIC

t0 = Process.clock_gettime(clock)
queues = Array.new(n) { Queue.new }
done = Queue.new
threads = Array.new(n) do |i|
  inbox = queues[i]
  outbox = queues[succ[i]]
  Thread.new do
    while (v = inbox.pop) >= 0
      if v == 0 then done << true else outbox << v - 1 end
    end
  end
end
created = Process.clock_gettime(clock) - t0

best = nil
reps.times do
  t = Process.clock_gettime(clock)
  queues[0] << n * laps - 1
  done.pop
  dt = Process.clock_gettime(clock) - t
  best = dt if best.nil? || dt < best
end
queues.each { |q| q << -1 }
threads.each(&:join)
printf("ring n=%d laps=%d%s: %.3f s, %.1f ns/hand-off (create %.1f ms, %.2f us/thread)\n",
       n, laps, shuffled ? " shuffled" : "", best, best * 1e9 / (n * laps), created * 1e3, created * 1e6 / n)
