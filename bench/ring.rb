# The seed's ring: N threads, each with a Queue; a token goes LAPS times around (N*LAPS hand-offs).
# Thread creation is timed separately and excluded from the ring time, as in the seed.
#   mnrb bench/ring.rb [N] [LAPS] [REPS]
n = (ARGV[0] || 10_000).to_i
laps = (ARGV[1] || 1_000).to_i
reps = (ARGV[2] || 1).to_i
clock = Process::CLOCK_MONOTONIC

t0 = Process.clock_gettime(clock)
queues = Array.new(n) { Queue.new }
done = Queue.new
threads = Array.new(n) do |i|
  inbox = queues[i]
  outbox = queues[(i + 1) % n]
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
printf("ring n=%d laps=%d: %.3f s, %.1f ns/hand-off (create %.1f ms, %.2f us/thread)\n",
       n, laps, best, best * 1e9 / (n * laps), created * 1e3, created * 1e6 / n)
