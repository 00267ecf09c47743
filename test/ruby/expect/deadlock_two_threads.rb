# Main and a second thread both wait on empty queues: every live thread sleeps forever.
# expect-status: 1
# expect-stderr: No live threads left. Deadlock?
# expect-no-stdout: unreachable
q = Queue.new
Thread.new { q.pop }
Queue.new.pop
puts "unreachable"
