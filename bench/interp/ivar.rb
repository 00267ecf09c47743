# Instance variables read and written in methods, and through attr_accessor.
class Counter
  attr_accessor :count, :step
  def initialize
    @count = 0
    @step = 1
    @a = @b = @c = 0
  end
  def bump
    @count += @step
    @a = @b
    @b = @c
    @c = @count
  end
end
c = Counter.new
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
i = 0
while i < 2_000_000
  c.bump
  c.count = c.count + c.step
  i += 1
end
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
