# A Ruby method that yields to a block, and a block passed on explicitly with &.
def each_pair_of(n)
  i = 0
  while i < n
    yield i, i + 1
    i += 1
  end
end
def twice(&blk)
  blk.call(1)
  blk.call(2)
end
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
sum = 0
each_pair_of(2_000_000) { |a, b| sum += a + b }
300_000.times { twice { |x| sum += x } }
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
