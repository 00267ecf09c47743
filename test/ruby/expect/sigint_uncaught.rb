# SIGINT with no trap: Interrupt is raised in the main thread (here asleep); uncaught, it is
# reported and the process ends by SIGINT (status 130 as a shell sees it), after at_exit handlers.
# expect-status: 130
# expect-stderr: Interrupt
# expect-stdout: at_exit ran
# expect-no-stdout: unreachable
at_exit { puts "at_exit ran" }
Thread.new { sleep 0.01; Process.kill(:INT, Process.pid) }
sleep 10
puts "unreachable"
