# A GC-heavy loop: short-lived Strings, Arrays and Hashes beside a live set of 1,000,000 objects.
live = Array.new(1_000_000) { |i| "live #{i}" }
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
i = 0
while i < 600_000
  s = "item #{i}"
  a = [s, i, s]
  h = { key: a, n: i }
  live[i % 1_000_000] = s if i % 97 == 0
  i += 1
end
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
