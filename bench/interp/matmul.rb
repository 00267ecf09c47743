# Float matrix multiplication over nested Arrays.
def matmul(a, b)
  n = a.size
  m = b[0].size
  p = b.size
  bt = Array.new(m) { |j| Array.new(p) { |k| b[k][j] } }
  Array.new(n) do |i|
    row = a[i]
    Array.new(m) do |j|
      col = bt[j]
      s = 0.0
      k = 0
      while k < p
        s += row[k] * col[k]
        k += 1
      end
      s
    end
  end
end
n = 120
a = Array.new(n) { |i| Array.new(n) { |j| (i - j) * 0.5 / n } }
b = Array.new(n) { |i| Array.new(n) { |j| (i + j) * 0.25 / n } }
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
c = matmul(a, b)
c = matmul(c, b)
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
