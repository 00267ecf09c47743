# C methods that call a block for each element: the cost of entering the block from C.
ary = Array.new(1000) { |i| i }
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
sum = 0
500.times do
  ary.reverse_each { |x| sum += x }
  ary.index { |x| x == 999 }
  ary.each_with_index { |x, i| sum += i }
  ary.select { |x| x > 500 }
end
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
