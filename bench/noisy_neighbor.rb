# Seed 002's noisy neighbour: one thread doing request/response with a 5 ms server, alone or next to
# a thread doing `c += 1` forever; and that counter's rate, to see what share of a core it keeps.
#   noisy_neighbor.rb PORTFILE alone|cpu|counter [SECONDS]
require 'socket' unless Object.const_defined?(:TCPSocket)
port = File.read(ARGV[0]).to_i
mode = ARGV[1] || "alone"
secs = (ARGV[2] || 2).to_f
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
count = 0
stop = false
counter = Thread.new { c = 0; until stop; c += 1; end; count = c } if mode != "alone"
if mode == "counter"
  sleep secs
  stop = true
  counter.join
  printf("counter alone: %.0f increments/s\n", count / secs)
  exit
end
s = TCPSocket.new('127.0.0.1', port)
n = 0
lat = []
t0 = now.call
while now.call - t0 < secs
  a = now.call
  s.write("x\n")
  s.gets
  lat << now.call - a
  n += 1
end
elapsed = now.call - t0
stop = true
counter.join if counter
lat.sort!
printf("%s: %.1f req/s  p50 %.1f ms  p99 %.1f ms%s\n", mode == "cpu" ? "with cpu neighbour" : "alone",
       n / elapsed, lat[lat.size / 2] * 1e3, lat[(lat.size * 0.99).to_i] * 1e3,
       counter ? format("  counter %.0f increments/s", count / elapsed) : "")
