# Thread.exit in the main thread ends the program like exit: status 0, at_exit handlers run.
# expect-status: 0
# expect-stdout: at_exit ran
# expect-no-stdout: unreachable
at_exit { puts "at_exit ran" }
Thread.exit
puts "unreachable"
