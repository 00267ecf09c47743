# Thread.abort_on_exception = true: an exception in any thread is re-raised in the main
# thread, which (uncaught) ends the process with status 1 and the exception on stderr.
# expect-status: 1
# expect-stderr: aborting boom (RuntimeError)
# expect-no-stdout: unreachable
Thread.abort_on_exception = true
Thread.new { raise "aborting boom" }
sleep 10
puts "unreachable"
