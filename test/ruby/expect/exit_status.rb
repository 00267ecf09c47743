# Kernel#exit(3) ends the process with status 3, after running at_exit handlers.
# expect-status: 3
# expect-stdout: before exit
# expect-stdout: at_exit ran
# expect-no-stdout: unreachable
at_exit { puts "at_exit ran" }
puts "before exit"
exit 3
puts "unreachable"
