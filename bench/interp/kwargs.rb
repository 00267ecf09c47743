# Methods taking keyword arguments: required, optional, and a caller that passes some of them.
def area(width:, height:, scale: 1)
  width * height * scale
end
def move(x, y, dx: 0, dy: 0)
  x + dx + y + dy
end
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
i = 0
sum = 0
while i < 1_000_000
  sum += area(width: i, height: 2)
  sum += move(i, 1, dy: 3)
  i += 1
end
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
