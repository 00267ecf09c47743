# Seed 001's CPU-bound sweep, as an mnrb-tune unit: fib(20) in Ruby (seed 001 computes digits of pi
# with BigDecimal, which mruby lacks; any pure-Ruby computation has the same shape).
def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end

Tune.work { fib(20) }
