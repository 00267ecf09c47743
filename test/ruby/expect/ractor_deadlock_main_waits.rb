# The main thread takes from a ractor that waits for a message nobody can send: every ractor waits
# forever. mnrb reports it as CRuby reports a deadlock of threads (fatal, status 1), naming the
# ractors; CRuby 3.1 hangs.
# expect-mnrb-only: CRuby hangs
# expect-status: 1
# expect-stdout: before
# expect-no-stdout: after
# expect-stderr: No live threads left. Deadlock? (fatal)
# expect-stderr: ractor_deadlock_main_waits.rb:11
puts "before"
r = Ractor.new { Ractor.receive }
r.take
puts "after"
