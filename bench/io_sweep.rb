# Seed 001's I/O-bound sweep: 30 requests to a loopback server that answers after 50 ms, spread over
# N threads (each with its own connection); ideal elapsed: 30 x 50 ms / N.
#   io_sweep.rb PORTFILE [THREADS...]
require 'socket' unless Object.const_defined?(:TCPSocket)
port = File.read(ARGV[0]).to_i
levels = ARGV.size > 1 ? ARGV[1..-1].map(&:to_i) : [1, 2, 3, 5, 6, 10, 15, 30]
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
levels.each do |n|
  t0 = now.call
  n.times.map do |i|
    Thread.new do
      s = TCPSocket.new('127.0.0.1', port)
      (30 / n + (i < 30 % n ? 1 : 0)).times { s.write("x\n"); s.gets }
      s.close
    end
  end.each(&:join)
  dt = now.call - t0
  ideal = (30.0 / n).ceil * 0.05
  printf("%2d threads: %.3f s (ideal %.3f s, %.2fx)\n", n, dt, ideal, dt / ideal)
end
