# Two ractors each wait to take from the other while the main ractor joins one of them.
# expect-mnrb-only: CRuby hangs
# expect-status: 1
# expect-no-stdout: after
# expect-stderr: No live threads left. Deadlock? (fatal)
a = Ractor.new { b = Ractor.receive; b.take }
b = Ractor.new(a) { |other| other.take }
a << b
Thread.new { b.take }.join
puts "after"
