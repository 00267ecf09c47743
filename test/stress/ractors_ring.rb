# Stress: rings of ractors pass numbered messages along (several in flight at once, so that a ractor
# readied by a message finds its native thread's hand-off slot taken, or switches straight into the
# next ractor: core/src/sched.c, serve_slot) while a computing ractor competes for the native
# threads; a SIGTERM may land at any moment. In a finished run each ractor of each ring received
# every number, in order, beside a ractor that computes all along.
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
Warning[:experimental] = false if defined?(Warning) && Warning.respond_to?(:[]=)

def ring_round(n, count, window)
  main = Ractor.current
  prev = main
  n.times do
    prev = Ractor.new(prev) do |nx|
      expect = 0
      while (v = Ractor.receive).is_a?(Integer)
        raise "CORRUPT: got #{v}, expected #{expect}" unless v == expect
        expect += 1
        nx.send v
      end
      nx.send v + [expect]
    end
  end
  first = prev
  sent = got = 0
  [window, count].min.times { first.send sent; sent += 1 }
  while got < count
    v = Ractor.receive
    raise "CORRUPT: main got #{v}, expected #{got}" unless v == got
    got += 1
    if sent < count
      first.send sent
      sent += 1
    end
  end
  first.send [:stop]
  counts = Ractor.receive
  raise "CORRUPT: counts #{counts.inspect}" unless counts == [:stop] + [count] * n
end

Ractor.new { x = 0; loop { x += 1 } }   # competes with the rings for the native threads
puts "READY"
$stdout.flush
rounds = 0
loop do
  n = rand(2..40)
  ring_round(n, rand(1..400), rand(1..[n, 8].min))
  rounds += 1
  break if FINISH && rounds >= 40
end
puts "OK #{rounds} rounds"
