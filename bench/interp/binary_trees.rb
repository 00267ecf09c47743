# Building and walking many short-lived binary trees (allocation, recursion).
def make(depth)
  depth == 0 ? [nil, nil] : [make(depth - 1), make(depth - 1)]
end
def check(node)
  l, r = node
  l ? 1 + check(l) + check(r) : 1
end
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
long_lived = make(14)
total = 0
4.step(14, 2) do |d|
  (1 << (16 - d)).times { total += check(make(d)) }
end
total += check(long_lived)
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
