# A thread killed by an exception reports it on stderr when report_on_exception is true
# (the default), naming the thread, then the exception; the process itself carries on.
# expect-status: 0
# expect-stderr: #<Thread:
# expect-stderr: terminated with exception (report_on_exception is true):
# expect-stderr: reported boom (RuntimeError)
# expect-stdout: main carried on
t = Thread.new { raise "reported boom" }
begin
  t.join
rescue RuntimeError
end
puts "main carried on"
