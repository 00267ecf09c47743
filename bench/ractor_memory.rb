# Memory per ractor: resident set growth while N ractors wait in Ractor.receive, divided by N
# (Linux /proc). Run with RUBY_MAX_PROC=1 for a steady figure.   mnrb bench/ractor_memory.rb [N]
# Each ractor tells the main ractor that it runs before it waits, and the figure is read once all
# have: a ractor created but not yet run has not touched its C stack nor run its setup. Until
# mem20g the figure was read right after the N Ractor.new calls, when with one worker almost none
# had run (4 KiB a ractor fewer: docs/PERFORMANCE.md, "Memory per waiting ractor: the root
# context's stacks cut"); that reading is printed too, as "when created". The first Ractor.new of
# a process makes the template every later one copies (three boots, ~1 MiB once): made before the
# first reading, so that 500 ractors give what 10,000 do (it was ~2 KiB a ractor of 500).
def rss_kib
  File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i
end

n = (ARGV[0] || 500).to_i
Ractor.new { 1 }.take   # the first Ractor.new makes the template (once per process)
GC.start
before = rss_kib
me = Ractor.current      # 1, not a Symbol: that measured 3.7 KiB more a ractor (PERFORMANCE.md, mem20g)
ractors = n.times.map { Ractor.new(me) { |main| main << 1; Ractor.receive } }
created = rss_kib - before
n.times { Ractor.receive }
grown = rss_kib - before
printf("%d waiting ractors: %.1f KiB each (resident set +%.1f MiB; %.1f KiB each when created)\n",
       n, grown.to_f / n, grown / 1024.0, created.to_f / n)
ractors.each { |r| r << :done }
ractors.each(&:take)
