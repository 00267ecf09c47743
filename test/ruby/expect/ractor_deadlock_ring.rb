# Three ractors each wait to receive before sending to the next, and the main thread joins the
# first: nobody can ever move. Reported, not hung (mnrb; CRuby 3.1 hangs).
# expect-mnrb-only: CRuby hangs
# expect-status: 1
# expect-stderr: No live threads left. Deadlock? (fatal)
a = Ractor.new { Ractor.receive }
b = Ractor.new(a) { |n| x = Ractor.receive; n << x }
c = Ractor.new(b) { |n| x = Ractor.receive; n << x }
begin
  a.take
rescue Ractor::RemoteError
  puts "no"
end
