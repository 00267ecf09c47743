# Stress: signals sent to self while threads wait in ConditionVariable#wait (one of them rescuing every
# exception around it), Queue#pop, Mutex#lock, sleep and join, and other threads kill and raise into
# them. A kill is not an exception a rescue can swallow; the trap handler runs for the signals sent;
# nothing is reported as a thread that "terminated with exception".
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
Poke = Class.new(StandardError)
Thread.report_on_exception = false

handled = 0
trap(:USR1) { handled += 1 }

m = Mutex.new
m2 = Mutex.new   # (a raise that lands while a cv waiter re-takes a contended mutex is lost in CRuby 3.1 too)
cv = ConditionVariable.new
q = Queue.new
stubborn = Thread.new { loop { begin; m.synchronize { cv.wait(m) }; rescue Exception; end } }

def waiter(kind, m, m2, cv, q)
  Thread.new do
    case kind
    when 0 then m.synchronize { cv.wait(m) }
    when 1 then q.pop
    when 2 then sleep
    when 3 then m2.synchronize { sleep 0.001 }
    else Thread.new { sleep }.join
    end
  rescue Poke
    :poked
  ensure
    Thread.current[:ensured] = true
  end
end

puts "READY"
$stdout.flush
sent = 0
rounds = 0
loop do
  kinds = Array.new(rand(4..16)) { rand(5) }
  waiters = kinds.map { |k| waiter(k, m, m2, cv, q) }
  waiters.each { |t| Thread.pass while t.status == "run" }   # each one blocked (or ended) before the pokes
  3.times { Process.kill(:USR1, $$); sent += 1 }
  waiters.each_with_index do |t, i|
    i.even? ? t.kill : t.raise(Poke)
  end
  waiters.each do |t|
    raise "ensure did not run in #{t.inspect}" if (t.value rescue nil) == :poked && !t[:ensured]
  end
  m.synchronize { cv.broadcast }
  q.clear
  rounds += 1
  break if FINISH && rounds >= 200
end
stubborn.kill
stubborn.join
deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
Thread.pass while handled < 1 && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
raise "the USR1 handler never ran (#{sent} sent)" if handled < 1
raise "the USR1 handler ran #{handled} times for #{sent} signals" if handled > sent
puts "OK #{rounds} rounds, #{handled}/#{sent} signals handled"
