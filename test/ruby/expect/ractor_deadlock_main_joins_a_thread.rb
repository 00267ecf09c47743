# The main thread joins a thread of its own that takes from a ractor waiting for a message nobody
# can send: the thread that waits on the ractor sees every ractor stuck and the main thread gets
# CRuby's fatal deadlock error (CRuby 3.1 hangs).
# expect-mnrb-only: CRuby hangs
# expect-status: 1
# expect-stdout: before
# expect-no-stdout: after
# expect-stderr: No live threads left. Deadlock? (fatal)
# expect-stderr: in 'Thread#join'
puts "before"
r1 = Ractor.new { Ractor.receive }
r2 = Ractor.new { Ractor.receive }
t = Thread.new { r1.take }
t.join
puts "after"
