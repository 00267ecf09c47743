# SIGTERM while the main thread runs a long Integer#times loop (the block called by the iterator
# many times from a Ruby loop): the loop is preemptible, the uncaught SignalException ends
# the process by SIGTERM (143) as CRuby does. The signal is sent once the loop is running.
# expect-status: 143
# expect-no-stdout: unreachable
started = Queue.new
Thread.new { started.pop; Process.kill(:TERM, Process.pid) }
(10**12).times { |i| started << true if i == 0 }
puts "unreachable"
