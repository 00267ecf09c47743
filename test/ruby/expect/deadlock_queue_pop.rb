# The main thread pops an empty Queue and no other thread exists: CRuby raises fatal in main.
# expect-status: 1
# expect-stderr: No live threads left. Deadlock?
# expect-no-stdout: unreachable
Queue.new.pop
puts "unreachable"
