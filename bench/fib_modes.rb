# Seed 003: fib(N) ten times, serially, in 10 threads, and in 10 forked processes (and, when Ractor
# exists, in 10 ractors): elapsed time and the peak resident memory of everything involved.
#   fib_modes.rb serial|threads|ractors|fork [N]
mode = ARGV[0] || "serial"
n = (ARGV[1] || 27).to_i
def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end
def hwm_kb(pid = "self")
  File.open("/proc/#{pid}/status") { |f| f.each_line { |l| return l.split[1].to_i if l.start_with?("VmHWM") } }
  0
end
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
t0 = now.call
peak = 0
case mode
when "serial"
  10.times { fib(n) }
when "threads"
  10.times.map { Thread.new { fib(n) } }.each(&:join)
when "ractors"
  10.times.map { Ractor.new(n) { |k| fib(k) } }.each(&:take)
when "fork"
  r, w = IO.pipe
  pids = 10.times.map { fork { r.close; fib(n); w.write("#{hwm_kb}\n"); w.close } }
  w.close
  peak = r.read.split.map(&:to_i).sum
  r.close
  pids.each { |pid| Process.wait(pid) }
end
dt = now.call - t0
printf("%-8s fib(%d) x 10: %.3f s, peak memory %.1f MB\n", mode, n, dt, (hwm_kb + peak) / 1024.0)
