# An exception that escapes the main script prints its message, class and backtrace on
# stderr, and the process exits with status 1.
# expect-status: 1
# expect-stderr: uncaught_exception.rb:10
# expect-stderr: uncaught_exception.rb:14
# expect-stderr: expected failure (ArgumentError)
# expect-stdout: before raise
# expect-no-stdout: unreachable
def helper
  raise ArgumentError, "expected failure"
end
puts "before raise"
$stdout.flush
helper
puts "unreachable"
