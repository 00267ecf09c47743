# A ractor whose threads all wait forever (its main thread joins one that waits for a message)
# while the main ractor computes: the program ends when the main thread does, nothing hangs.
# expect-status: 0
# expect-stdout: computed 1000000
r = Ractor.new do
  t = Thread.new { Ractor.receive }
  t.join
end
x = 0
1_000_000.times { x += 1 }
puts "computed #{x}"
