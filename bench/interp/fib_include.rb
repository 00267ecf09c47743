# Seed 003's own fib: an array literal and a C method (Array#include?) at every call.
def fib(n)
  return n if [0, 1].include?(n)
  fib(n - 1) + fib(n - 2)
end
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
10.times { fib(24) }
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
