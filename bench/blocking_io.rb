# Blocking calls at their cheapest (issue 21): N x output.write(input.read(10)) on /dev/zero and
# /dev/null, two devices whose calls return at once. Prints the seconds taken.
#   mnrb bench/blocking_io.rb [N]
n = (ARGV[0] || 100_000).to_i
clock = Process::CLOCK_MONOTONIC
File.open("/dev/zero") do |input|
  File.open("/dev/null", "w") do |output|
    t = Process.clock_gettime(clock)
    i = 0
    while i < n
      output.write(input.read(10))
      i += 1
    end
    printf("%d x write(read(10)) /dev/zero -> /dev/null: %.3f s\n", n, Process.clock_gettime(clock) - t)
  end
end
