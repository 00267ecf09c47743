# Main pushes to a full SizedQueue that nobody will pop.
# expect-status: 1
# expect-stderr: No live threads left. Deadlock?
# expect-no-stdout: unreachable
q = SizedQueue.new(1)
q << 1
q << 2
puts "unreachable"
