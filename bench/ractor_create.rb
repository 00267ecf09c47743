# Ractor creation: N ractors, each waiting for one message (bench/ractor_create.rb [N]).
n = (ARGV[0] || 1000).to_i
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
rs = n.times.map { Ractor.new { Ractor.receive } }
dt = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
printf("%d ractors created in %.3fs: %.1f us each\n", n, dt, dt * 1e6 / n)
rs.each { |r| r << 1 }
rs.each(&:take)
