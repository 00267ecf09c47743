# Regexp matching, the same script on mnrb and CRuby: a few common patterns over the same generated
# text (a few MB of ASCII log-like lines). Prints one line per case: "name: N.NNN s (result)".
#   bin/mnrb bench/regexp.rb [scale]      ruby bench/regexp.rb [scale]
scale = (ARGV[0] || 3).to_i
words = %w(alpha beta gamma delta error warning info debug user admin request response timeout)
lines = []
seed = 42
(20_000 * scale).times do |i|
  seed = (seed * 1103515245 + 12345) % 2147483648
  w1 = words[seed % words.size]
  w2 = words[(seed >> 8) % words.size]
  lines << "2024-01-#{(i % 28 + 1).to_s.rjust(2, '0')} 12:#{(i % 60).to_s.rjust(2, '0')}:07 [#{w1}] #{w2} id=#{seed % 100000} took #{seed % 997}ms"
end
text = lines.join("\n")

def timed(name)
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  r = yield
  printf("%-34s %.3f s (%s)\n", name + ":", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t, r)
end

# Per line: while loops, so that the numbers are mostly the regexp's. mruby's interpreter runs the
# loops themselves, and above all Array#each and block calls, several times slower than CRuby: the
# two "floor" cases time those alone.
timed("while over lines, no regexp (floor)") { n = 0; 5.times { i = 0; while i < lines.size; n += 1 if lines[i]; i += 1; end }; n }
timed("literal search per line") { n = 0; 5.times { i = 0; while i < lines.size; n += 1 if lines[i] =~ /timeout/; i += 1; end }; n }
timed("alternation per line") { n = 0; 5.times { i = 0; while i < lines.size; n += 1 if /error|warning|timeout/.match?(lines[i]); i += 1; end }; n }
timed("captures per line") do
  sum = 0
  5.times { i = 0; while i < lines.size; m = /id=(\d+) took (\d+)ms/.match(lines[i]); sum += m[2].to_i if m; i += 1; end }
  sum
end
timed("lines.each, no regexp (floor)") { n = 0; lines.each { |l| n += l.size }; n }
timed("$1 after =~, in each") { sum = 0; lines.each { |l| sum += $1.to_i if l =~ /took (\d+)ms/ }; sum }
timed("scan over the text") { text.scan(/\[(\w+)\]/).size }
timed("gsub over the text (#{text.size / 1_000_000.0} MB)") { text.gsub(/(\d+)ms/, '\1 ms').size }
timed("gsub with a block over the text") { text.gsub(/\d+/) { |d| d.size.to_s }.size }
timed("split lines by a regexp") { text.split(/\n/).size }
