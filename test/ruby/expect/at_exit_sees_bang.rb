# at_exit handlers see the exception that ends the script as $! (minitest's and test-unit's
# autorun check it), then the one a previous handler raised; nil when the script ends normally is
# checked by the first handler registered (it runs last, after the raising one).
# expect-status: 1
# expect-stdout: second handler: RuntimeError: script failed
# expect-stdout: first handler: ArgumentError: from a handler
# expect-stderr: script failed (RuntimeError)
# expect-stderr: from a handler (ArgumentError)
at_exit { puts "first handler: #{$!.class}: #{$!.message}" }
at_exit { raise ArgumentError, "from a handler" }
at_exit { puts "second handler: #{$!.class}: #{$!.message}" }
raise "script failed"
