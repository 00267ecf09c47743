# The seed's Ractor ring (ko1's gist shape): N ractors in a chain, each receiving and forwarding to
# the next; the last forwards to the main ractor, which sends the token LAPS times around.
# Creation is timed separately and excluded.   mnrb bench/ractor_ring.rb [N] [LAPS]
n = (ARGV[0] || 1_000).to_i
laps = (ARGV[1] || 100).to_i
clock = Process::CLOCK_MONOTONIC

t0 = Process.clock_gettime(clock)
prev = Ractor.current
n.times do
  prev = Ractor.new(prev) do |nx|
    while (v = Ractor.receive) != :stop
      nx.send v
    end
    nx.send :stop
  end
end
first = prev
created = Process.clock_gettime(clock) - t0

t = Process.clock_gettime(clock)
laps.times { first.send 1; Ractor.receive }
dt = Process.clock_gettime(clock) - t
first.send :stop
Ractor.receive
printf("ractor ring n=%d laps=%d: %.3f s, %.1f ns/hand-off (create %.1f ms, %.2f us/ractor)\n",
       n, laps, dt, dt * 1e9 / ((n + 1) * laps), created * 1e3, created * 1e6 / n)
