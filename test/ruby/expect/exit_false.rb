# Kernel#exit(false) ends the process with status 1.
# expect-status: 1
# expect-no-stdout: unreachable
exit false
puts "unreachable"
