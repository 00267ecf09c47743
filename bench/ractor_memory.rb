# Memory per ractor: resident set growth while N ractors wait in Ractor.receive, divided by N
# (Linux /proc). Run with RUBY_MAX_PROC=1 for a steady figure.   mnrb bench/ractor_memory.rb [N]
def rss_kib
  File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i
end

n = (ARGV[0] || 500).to_i
GC.start
before = rss_kib
ractors = n.times.map { Ractor.new { Ractor.receive } }
grown = rss_kib - before
printf("%d waiting ractors: %.0f KiB each (resident set +%.1f MiB)\n", n, grown.to_f / n, grown / 1024.0)
ractors.each { |r| r << :done }
ractors.each(&:take)
