# bench/regexp.rb's four per-line cases, each alone: a GC.start before each pass, best of 5 passes
# over the same 60,000 lines, so that one case's garbage is not collected in the next one's time.
#   bin/mnrb bench/regexp_lines.rb      ruby bench/regexp_lines.rb
words = %w(alpha beta gamma delta error warning info debug user admin request response timeout)
lines = []
seed = 42
60_000.times do |i|
  seed = (seed * 1103515245 + 12345) % 2147483648
  lines << "2024-01-#{(i % 28 + 1).to_s.rjust(2, '0')} 12:#{(i % 60).to_s.rjust(2, '0')}:07 [#{words[seed % 13]}] #{words[(seed >> 8) % 13]} id=#{seed % 100000} took #{seed % 997}ms"
end
def t(name)   # best of 5 passes, each after a full GC
  best = 9
  5.times { GC.start; t = Process.clock_gettime(Process::CLOCK_MONOTONIC); yield; d = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t; best = d if d < best }
  printf("%s: %.4f s\n", name, best)
end
t("literal") { n = 0; i = 0; while i < lines.size; n += 1 if lines[i] =~ /timeout/; i += 1; end }
t("alternation") { n = 0; i = 0; while i < lines.size; n += 1 if /error|warning|timeout/.match?(lines[i]); i += 1; end }
t("captures") { sum = 0; i = 0; while i < lines.size; m = /id=(\d+) took (\d+)ms/.match(lines[i]); sum += m[2].to_i if m; i += 1; end }
t("each $1") { sum = 0; lines.each { |l| sum += $1.to_i if l =~ /took (\d+)ms/ } }
