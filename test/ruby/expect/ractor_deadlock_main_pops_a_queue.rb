# The main thread waits on a Queue that only a thread waiting on a stuck ractor would fill.
# expect-mnrb-only: CRuby hangs
# expect-status: 1
# expect-no-stdout: after
# expect-stderr: No live threads left. Deadlock? (fatal)
# expect-stderr: in 'Thread::Queue#pop'
r = Ractor.new { Ractor.receive }
q = Queue.new
Thread.new { q << r.take }
q.pop
puts "after"
