# Counting the solutions of the 10-queens puzzle by backtracking over arrays.
def safe?(cols, row, col)
  cols.each_with_index do |c, r|
    return false if c == col || (row - r).abs == (col - c).abs
  end
  true
end
def solve(n, cols = [])
  return 1 if cols.size == n
  count = 0
  n.times do |col|
    if safe?(cols, cols.size, col)
      cols.push(col)
      count += solve(n, cols)
      cols.pop
    end
  end
  count
end
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
raise "wrong count" unless solve(10) == 724
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
