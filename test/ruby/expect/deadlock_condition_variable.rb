# Main waits on a ConditionVariable that nobody will signal.
# expect-status: 1
# expect-stderr: No live threads left. Deadlock?
# expect-no-stdout: unreachable
m = Mutex.new
cv = ConditionVariable.new
m.synchronize { cv.wait(m) }
puts "unreachable"
