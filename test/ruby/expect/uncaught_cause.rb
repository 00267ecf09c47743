# An uncaught exception raised while rescuing others: CRuby reports it, then each cause in turn
# with its own backtrace (the message's other lines after the first, as for the exception itself).
# expect-status: 1
# expect-stderr: uncaught_cause.rb:21:in
# expect-stderr: : outer (TypeError)
# expect-stderr: uncaught_cause.rb:19:in
# expect-stderr: : middle (ArgumentError)
# expect-stderr: line2
# expect-stderr: uncaught_cause.rb:13:in
# expect-stderr: : inner (RuntimeError)
# expect-stderr: 	from uncaught_cause.rb:16:in
def inner
  raise "inner"
end
begin
  inner
rescue
  begin
    raise ArgumentError, "middle\nline2"
  rescue
    raise TypeError, "outer"
  end
end
