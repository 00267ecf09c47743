# Integer#times and friends (upto, step, each over a Range) with a small block.
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
sum = 0
3_000_000.times { |i| sum += i }
1.upto(1_000_000) { |i| sum -= i }
(1..1_000_000).each { |i| sum += i }
0.step(1_000_000, 2) { |i| sum += i }
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
