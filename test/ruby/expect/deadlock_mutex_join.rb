# Main holds a mutex and joins a thread that waits for it.
# expect-status: 1
# expect-stderr: No live threads left. Deadlock?
# expect-no-stdout: unreachable
m = Mutex.new
m.lock
Thread.new { m.lock }.join
puts "unreachable"
