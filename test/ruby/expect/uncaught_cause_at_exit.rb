# at_exit handlers run before the report; the report of an exception with an explicit cause
# (raise ..., cause: e) shows that cause, even when it was never raised (no backtrace: the script's
# name stands for its position).
# expect-status: 1
# expect-stdout: at_exit ran
# expect-stderr: : wrapper (RuntimeError)
# expect-stderr: uncaught_cause_at_exit.rb: original (KeyError)
at_exit { puts "at_exit ran" }
raise "wrapper", cause: KeyError.new("original")
