# CPU-bound work in one thread: the cost of the safepoint checks when no preemption is pending.
def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end
n = (ARGV[0] || 30).to_i
t = Time.now
fib(n)
printf("fib(%d): %.3f s\n", n, Time.now - t)
