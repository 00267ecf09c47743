# When the main thread ends, every other ractor is terminated (CRuby: "if main Ractor terminated,
# all Ractors receive terminate request like Threads"): computing, waiting on a message, waiting
# on a Queue. Their ensure clauses run; the process exits with the main thread's status.
# expect-status: 0
# expect-stdout: started 3
# expect-stdout: main done
# expect-no-stdout: finished
main = Ractor.current
Ractor.new(main) { |m| m << 1; loop { }; puts "finished" }
Ractor.new(main) { |m| m << 2; Ractor.receive; puts "finished" }
Ractor.new(main) { |m| q = Queue.new; t = Thread.new { q.pop }; m << 3; t.join; puts "finished" }
3.times { Ractor.receive }
puts "started 3"
puts "main done"
