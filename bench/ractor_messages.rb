# Message throughput between two ractors (issue 8): the main ractor sends N messages of one kind to
# a ractor that receives them and answers with a count at the end (one-way stream: the sender does
# not wait for each). Per kind: messages per second and microseconds per message, creation excluded.
#   mnrb bench/ractor_messages.rb [N]        (runs on CRuby too)
n = (ARGV[0] || 20_000).to_i
kinds = {
  "Integer"                 => 42,
  "100-byte String"         => "x" * 100,
  "10-element Array"        => (1..10).to_a,
  "1,000-element Hash"      => (1..1000).to_h { |i| [i, i.to_s] },
}
kinds.each do |label, msg|
  count = label.start_with?("1,000") ? n / 20 : n
  r = Ractor.new do
    got = 0
    while (m = Ractor.receive) != :done
      got += 1
    end
    got
  end
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  count.times { r.send(msg) }
  r.send(:done)
  got = r.take
  dt = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
  raise "lost messages: #{got} of #{count}" unless got == count
  printf("%-18s %7d messages: %9.0f per second, %7.2f us each\n", label, count, count / dt, dt * 1e6 / count)
end
