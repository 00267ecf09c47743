# Plain recursive calls.
def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
fib(30)
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
