# Kernel#exit!(4) ends the process at once with status 4: at_exit handlers and ensure clauses
# do not run.
# expect-status: 4
# expect-stdout: before exit!
# expect-no-stdout: at_exit ran
# expect-no-stdout: ensure ran
at_exit { puts "at_exit ran" }
puts "before exit!"
$stdout.flush
begin
  exit! 4
ensure
  puts "ensure ran"
end
