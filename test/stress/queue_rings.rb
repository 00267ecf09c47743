# Stress: rings of threads passing tokens through Queues (a push to a parked popper defers its
# wake-up to the pusher's next park: core/src/sched.c, mn_unpark_soon) while the main thread raises
# into and wakes ring threads between its own sleeps and passes, and a computing thread takes whole
# timeslices. A raise lands only in Queue#pop (handle_interrupt :on_blocking); a popper raised into
# as an item is handed to it gives the item back to its queue. Every token arrives, once.
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
Poke = Class.new(StandardError)
Thread.report_on_exception = false

spinning = true
spinner = Thread.new { n = 0; n += 1 while spinning }   # only a timeslice end lets others run

def ring(n, tokens, laps, poke)
  queues = Array.new(n) { Queue.new }
  done = Queue.new
  threads = Array.new(n) do |i|
    Thread.new do
      inbox = queues[i]
      outbox = queues[(i + 1) % n]
      Thread.handle_interrupt(Poke => :on_blocking) do
        loop do
          begin
            v = inbox.pop
            break if v.nil?
            id, left = v
            if left == 0 then done << id else outbox << [id, left - 1] end
          rescue Poke
          end
        end
      end
    end
  end
  threads.each { |t| Thread.pass until t.status == "sleep" }   # inside handle_interrupt, waiting
  tokens.times { |id| queues[rand(n)] << [id, laps] }
  got = []
  while got.size < tokens
    if poke && rand(3) == 0
      t = threads[rand(n)]
      rand(2) == 0 ? t.raise(Poke) : t.wakeup
    end
    got << done.pop while !done.empty?
    rand(2) == 0 ? Thread.pass : sleep(0.0001)
  end
  queues.each { |q| q << nil }
  threads.each { |t| begin; t.join; rescue Poke; end }   # a poke pending at its end
  raise "tokens #{got.sort.inspect}, expected 0...#{tokens}" unless got.sort == (0...tokens).to_a
end

puts "READY"
$stdout.flush
rounds = 0
loop do
  ring(rand(2..200), rand(1..8), rand(0..300), rand(2) == 0)
  rounds += 1
  break if FINISH && rounds >= 60
end
spinning = false
spinner.join
puts "OK #{rounds} rings"
