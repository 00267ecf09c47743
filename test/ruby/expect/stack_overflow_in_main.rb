# Unbounded recursion in the main thread is a SystemStackError, reported as CRuby reports it (the
# middle of the backtrace elided), with exit status 1: never a crash.
# expect-status: 1
# expect-stderr: stack level too deep (SystemStackError)
# expect-stderr:  levels...
# expect-stdout: before
def recurse(n)
  recurse(n + 1)
end
puts "before"
$stdout.flush
recurse(0)
