# Many short-lived ractors from one block (issue 8: "100,000 ractors from one block must work"):
# each returns a value, all are taken; ended ractors are closed as new ones are made, so memory stays
# bounded.   mnrb bench/ractor_many.rb [N]
n = (ARGV[0] || 100_000).to_i
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
rs = n.times.map { |i| Ractor.new(i) { |k| k * 2 } }
sum = rs.sum(&:take)
dt = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
raise "wrong sum" unless sum == n * (n - 1)
printf("%d ractors from one block: %.1f s, %.0f us each; Ractor.count now %d\n", n, dt, dt * 1e6 / n, Ractor.count)
