# Stress: rounds of short-lived threads that talk through pipes, are interrupted and killed, and leave
# nothing behind. After a few rounds to warm up, the resident set must return to that baseline: 20 more
# rounds may not grow it by more than a quarter (plus 8 MB for the allocator's own slack).
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
Thread.report_on_exception = false
Stop = Class.new(StandardError)

def rss_kb = File.read("/proc/self/statm").split[1].to_i * 4

def round
  pipes = Array.new(20) { IO.pipe }
  readers = pipes.map do |r, _|
    Thread.new do
      buf = +""
      begin
        loop { buf << r.readpartial(4096) }
      rescue EOFError, IOError, Stop
      end
      buf.size
    end
  end
  writers = pipes.map do |_, w|
    Thread.new do
      50.times { w.write("y" * rand(1..2000)) }
    rescue Errno::EPIPE, IOError
    ensure
      w.close
    end
  end
  sleepers = Array.new(50) { Thread.new { sleep } }
  readers.each_with_index do |t, i|
    next if i.even?
    t.raise(Stop)                    # wherever it is: the rescue in the thread or the join takes it
    (t.join rescue Stop)
    pipes[i][0].close                # its writer then fails with EPIPE
  end
  writers.each(&:join)
  readers.each_with_index { |t, i| t.value if i.even? }
  sleepers.each(&:kill).each(&:join)
  pipes.each { |r, _| r.close unless r.closed? }
end

puts "READY"
$stdout.flush
4.times { round }
GC.start
baseline = rss_kb
rounds = 0
loop do
  round
  rounds += 1
  break if FINISH && rounds >= 20
end
GC.start
now = rss_kb
# (release builds only: AddressSanitizer's quarantine holds freed memory back, up to 256 MB, on
# purpose, and ThreadSanitizer's allocator and shadow memory grow on their own)
if now > baseline * 1.25 + 8192 && ENV["MNRB_SANITIZER"].to_s.empty?
  raise "RSS grew from #{baseline} KB to #{now} KB in #{rounds} rounds"
end
puts "OK RSS #{baseline} KB -> #{now} KB after #{rounds} rounds"
