# Ractors created and finished one after another (issue 20: 100,000 of them keep the resident set
# flat; CRuby 3.3 takes 1.5 s): each returns a value that is taken before the next is made.
# With M, the main ractor first defines M methods in a named class, which each ractor gets (lazily:
# mnrb-ractor lazy_methods.c) and calls one of (issue 20, helper lazy20): its copy's records are
# shared, not leaked.
#   mnrb bench/ractor_churn.rb [N] [M]
def rss_kib = File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i
n = (ARGV[0] || 100_000).to_i
m = (ARGV[1] || 0).to_i
if m > 0
  Object.const_set(:ChurnMethods, Class.new).class_eval(m.times.map { |i| "def m#{i}(x) x + #{i} end\n" }.join)
end
clock = Process::CLOCK_MONOTONIC
cpu = Process::CLOCK_PROCESS_CPUTIME_ID
200.times { Ractor.new { 1 }.take }
GC.start
r0 = rss_kib
t = Process.clock_gettime(clock)
c = Process.clock_gettime(cpu)
if m > 0
  n.times { |i| Ractor.new(i) { |k| ChurnMethods.new.m7(k) - 7 + k }.take }
else
  n.times { |i| Ractor.new(i) { |k| k * 2 }.take }
end
dt = Process.clock_gettime(clock) - t
dc = Process.clock_gettime(cpu) - c
GC.start
printf("%d ractors one after another%s: %.2f s (cpu %.2f s, %.0f us each); resident set %+d KiB (%.0f bytes per ractor)\n",
       n, m > 0 ? " (#{m} methods in main)" : "", dt, dc, dc * 1e6 / n, rss_kib - r0, (rss_kib - r0) * 1024.0 / n)
