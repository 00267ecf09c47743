# Class#new with an initialize that takes arguments and sets instance variables.
class Point
  def initialize(x, y)
    @x = x
    @y = y
  end
end
class Tagged
  def initialize(name, tag: :none)
    @name = name
    @tag = tag
  end
end
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
i = 0
while i < 1_000_000
  Point.new(i, i)
  Tagged.new(i, tag: :x) if i.even?
  i += 1
end
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
