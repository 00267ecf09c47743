# Ractors created and finished one after another (issue 20: 100,000 of them keep the resident set
# flat; CRuby 3.3 takes 1.5 s): each returns a value that is taken before the next is made.
#   mnrb bench/ractor_churn.rb [N]
def rss_kib = File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i
n = (ARGV[0] || 100_000).to_i
clock = Process::CLOCK_MONOTONIC
cpu = Process::CLOCK_PROCESS_CPUTIME_ID
200.times { Ractor.new { 1 }.take }
GC.start
r0 = rss_kib
t = Process.clock_gettime(clock)
c = Process.clock_gettime(cpu)
n.times { |i| Ractor.new(i) { |k| k * 2 }.take }
dt = Process.clock_gettime(clock) - t
dc = Process.clock_gettime(cpu) - c
GC.start
printf("%d ractors one after another: %.2f s (cpu %.2f s, %.0f us each); resident set %+d KiB (%.0f bytes per ractor)\n",
       n, dt, dc, dc * 1e6 / n, rss_kib - r0, (rss_kib - r0) * 1024.0 / n)
