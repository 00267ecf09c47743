# Run by examples/embed/host.c after its own steps: Ruby code using the host's C methods.
puts "script #{File.basename(__FILE__)} ARGV=#{ARGV.inspect}"

# Host.checksum runs without the GVL: four threads call it at once.
words = %w[alpha beta gamma delta]
sums = words.map { |w| Thread.new { [w, Host.checksum(w * 100_000)] } }.map(&:value)
puts "checksums agree with a second run: #{sums == words.map { |w| [w, Host.checksum(w * 100_000)] }}"

# Host.wait_event blocks in C without the GVL, so this thread can post the event it waits for.
waiter = Thread.new { Host.wait_event(5.0) }
Thread.pass until Host.waiters == 1 || !waiter.alive?
Host.post_event
puts "the event posted while a thread waited in C: #{waiter.value}"

# Thread#kill reaches a thread waiting in C: the host's unblocking function wakes it.
sleeper = Thread.new { Host.wait_event(30.0) }
Thread.pass until Host.waiters == 1 || !sleeper.alive?
sleeper.kill
sleeper.join
puts "killed in C: #{sleeper.status == false}, the wait ended: #{Host.last_wake}, waiters left: #{Host.waiters}"

begin
  Host.wait_event(-1)
rescue ArgumentError => e
  puts "bad input: #{e.message}"
end
exit Integer(ARGV.fetch(0, 0))
