# An uncaught Ractor::RemoteError is reported with its cause, the exception the ractor raised.
# expect-status: 1
# expect-stderr: thrown by remote Ractor. (Ractor::RemoteError)
# expect-stderr: uncaught_cause_ractor.rb:6:in
# expect-stderr: : in ractor (RuntimeError)
r = Ractor.new { raise "in ractor" }
r.take
