# A forked child runs the at_exit handlers it inherited when it ends, and its exit status reaches
# the parent through $?.
# expect-status: 0
# expect-stdout: handler in child
# expect-stdout: child status 4
at_exit { puts "handler in #{$child ? 'child' : 'parent'}" if $child }
pid = fork { $child = true; exit 4 }
Process.wait(pid)
puts "child status #{$?.exitstatus}"
