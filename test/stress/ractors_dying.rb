# Stress: ractors are created, message each other and the main ractor, raise and end while the main
# ractor goes on; a SIGTERM may land at any of those moments. In a finished run every message sent to
# the main ractor arrived and every failing ractor's error came back as Ractor::RemoteError.
# stress-allow-stderr: worker \d+ fails
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
Warning[:experimental] = false if defined?(Warning) && Warning.respond_to?(:[]=)
RESULT = Ractor.new {}.respond_to?(:value) ? :value : :take   # CRuby 3.5+/mnrb: value; 3.x: take

def ractor_round(main, n)
  workers = Array.new(n) do |i|
    Ractor.new(main, i) do |to, k|
      msg = Ractor.receive
      raise ArgumentError, "worker #{k} fails" if msg == :fail
      data = Array.new(msg) { |j| "#{k}-#{j}" }
      to.send([k, data])
      data.size
    end
  end
  plan = Array.new(n) { rand < 0.2 ? :fail : rand(1..50) }
  workers.zip(plan).each { |r, m| r.send(m) }
  got = {}
  (n - plan.count(:fail)).times do
    k, data = Ractor.receive
    raise "CORRUPT message from #{k}: #{data[0, 3].inspect}" unless data.each_with_index.all? { |s, j| s == "#{k}-#{j}" }
    got[k] = data.size
  end
  workers.each_with_index do |r, k|
    if plan[k] == :fail
      begin
        RESULT == :value ? r.value : r.take
        raise "worker #{k} should have failed"
      rescue Ractor::RemoteError => e
        raise "worker #{k}: cause #{e.cause.inspect}" unless e.cause.is_a?(ArgumentError)
      end
    else
      v = RESULT == :value ? r.value : r.take
      raise "worker #{k}: value #{v.inspect}, sent #{got[k].inspect}" unless v == plan[k] && got[k] == plan[k]
    end
  end
end

main = Ractor.current
puts "READY"
$stdout.flush
rounds = 0
loop do
  ractor_round(main, rand(2..12))
  rounds += 1
  break if FINISH && rounds >= 30
end
puts "OK #{rounds} rounds"
