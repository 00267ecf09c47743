# SIGTERM with no trap: SignalException in the main thread (here blocked reading a pipe); uncaught,
# the process ends by SIGTERM (143) without a message, as CRuby.
# expect-status: 143
# expect-no-stderr: SignalException
# expect-no-stdout: unreachable
r, w = IO.pipe
Thread.new { sleep 0.01; Process.kill(:TERM, Process.pid) }
r.read
puts "unreachable"
