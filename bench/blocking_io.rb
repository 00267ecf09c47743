# Blocking calls at their cheapest (issue 21): N x output.write(input.read(10)) on /dev/zero and
# /dev/null, two devices whose calls return at once; with "sys", N x
# output.syswrite(input.sysread(10)): two system calls, each a blocking call (no buffer on either
# side), which is what a blocking call costs. Prints the seconds taken.
#   mnrb bench/blocking_io.rb [N] [sys]
n = (ARGV[0] || 100_000).to_i
sys = ARGV[1] == "sys"
clock = Process::CLOCK_MONOTONIC
File.open("/dev/zero") do |input|
  File.open("/dev/null", "w") do |output|
    t = Process.clock_gettime(clock)
    i = 0
    if sys
      while i < n
        output.syswrite(input.sysread(10))
        i += 1
      end
    else
      while i < n
        output.write(input.read(10))
        i += 1
      end
    end
    what = sys ? "syswrite(sysread(10))" : "write(read(10))"
    printf("%d x %s /dev/zero -> /dev/null: %.3f s\n", n, what, Process.clock_gettime(clock) - t)
  end
end
