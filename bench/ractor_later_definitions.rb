# The cost of a definition made after a ractor started (definitions_log.c): main redefines a
# method N times, each time asking a running ractor to call it (a send and a take); the ractor
# applies the definition at its receive and loads the method at its call. Compare with
# `--no-define` (the same round trips, no definition).   mnrb bench/ractor_later_definitions.rb [N] [--no-define]
n = (ARGV[0] || 2_000).to_i
define = !ARGV.include?("--no-define")
class LaterBench
  def v = 0
end
r = Ractor.new do
  loop { Ractor.yield(LaterBench.new.v) if Ractor.receive }
end
clock = Process::CLOCK_MONOTONIC
t0 = Process.clock_gettime(clock)
n.times do |i|
  LaterBench.class_eval { def v = 1 } if define
  r.send(true)
  raise "stale" if define && r.take != 1
  r.take unless define
end
dt = Process.clock_gettime(clock) - t0
puts format("%d round trips%s: %.2f us each", n, define ? " with a definition" : "", dt * 1e6 / n)
