# Not a deadlock: main waits on a queue that a thread in a timed sleep will fill.
# expect-status: 0
# expect-stdout: got token
q = Queue.new
Thread.new { sleep 0.05; q << :token }
q.pop
puts "got token"
