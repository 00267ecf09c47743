# at_exit handlers run after the main script, in reverse order of registration.
# expect-status: 0
# expect-stdout: main finished
# expect-stdout: third handler
# expect-stdout: second handler
# expect-stdout: first handler
at_exit { puts "first handler" }
at_exit { puts "second handler" }
at_exit { puts "third handler" }
puts "main finished"
