# An uncaught Ractor::RemoteError is reported with its cause, the exception the ractor raised
# (its own thread does not report it, so that line can only come from the cause section).
# expect-status: 1
# expect-stderr: thrown by remote Ractor. (Ractor::RemoteError)
# expect-stderr: uncaught_cause_ractor.rb:9:in
# expect-stderr: : in ractor (RuntimeError)
r = Ractor.new do
  Thread.current.report_on_exception = false
  raise "in ractor"
end
r.take
