# Stress (issue 20): ractors are created, message each other and die while the main ractor ends at a
# random moment (falling off its end, exit, exit!), with work still in flight everywhere. The process
# must always end (the driver kills it and counts a failure otherwise) with status 0 and "OK"; every
# result that reached the main ractor is intact and was asked for once; no ractor reports an error.
# Workers pass each job along a chain of ractors they start for it; a chain's last ractor answers the
# main ractor and every ractor of the chain ends when its part is done.
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
Warning[:experimental] = false if defined?(Warning) && Warning.respond_to?(:[]=)

def link(to, hops)
  Ractor.new(to, hops) do |main, left|
    id, data = Ractor.receive
    data = data.map { |s| s + "." }
    if left.zero?
      main.send([id, data])
    else
      link(main, left - 1).send([id, data])   # the next link of the chain, started by this one
    end
  end
end

workers = Array.new(rand(2..6)) do
  Ractor.new(Ractor.main) do |main|
    while (job = Ractor.receive) != :stop
      id, hops, n = job
      link(main, hops).send([id, Array.new(n) { |j| "#{id}-#{j}" }])
    end
  end
end

puts "READY"
$stdout.flush
stop_after = FINISH ? rand(1..150) : Float::INFINITY   # results the main ractor waits for, then ends
sent = {}
got = 0
next_id = 0
while got < stop_after
  if sent.size < 20   # keep some work in flight
    hops = rand(0..3)
    n = rand(1..30)
    sent[next_id] = [hops, n]
    workers.sample.send([next_id, hops, n])
    next_id += 1
    next
  end
  id, data = Ractor.receive
  plan = sent.delete(id)
  raise "CORRUPT: result #{id.inspect} not asked for (or twice)" unless plan
  hops, n = plan
  expect = Array.new(n) { |j| "#{id}-#{j}" + "." * (hops + 1) }
  raise "CORRUPT: result #{id}: #{data.first(2).inspect}" unless data == expect
  got += 1
end
puts "OK #{got} results, #{sent.size} in flight"
$stdout.flush
case rand(3)
when 0 then nil            # the main thread falls off its end
when 1 then exit 0
when 2 then exit! 0        # no at_exit, no flush (stdout was flushed above)
end
