# Thread#abort_on_exception = true on one thread: its exception ends the process.
# expect-status: 1
# expect-stderr: instance abort (IndexError)
# expect-no-stdout: unreachable
q = Queue.new
t = Thread.new do
  Thread.current.abort_on_exception = true
  q.pop
  raise IndexError, "instance abort"
end
q << :go
sleep 10
puts "unreachable"
