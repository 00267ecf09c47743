# Timer accuracy: how far past its deadline a short sleep wakes (the issue asks for sub-millisecond
# timers). Measured in one thread while 100 other threads also sleep, and alone.
#   mnrb bench/sleep.rb [SLEEP_SECONDS] [COUNT]
span = (ARGV[0] || 0.0005).to_f
count = (ARGV[1] || 200).to_i
clock = Process::CLOCK_MONOTONIC

def measure(span, count, clock)
  over = Array.new(count) do
    t = Process.clock_gettime(clock)
    sleep span
    Process.clock_gettime(clock) - t - span
  end.sort
  [over.sum / count, over[count / 2], over[count * 99 / 100]]
end

alone = measure(span, count, clock)
stop = false
others = 100.times.map { Thread.new { sleep 0.0003 until stop } }
busy = measure(span, count, clock)
stop = true
others.each(&:join)
[["alone", alone], ["beside 100 sleeping threads", busy]].each do |label, (mean, p50, p99)|
  printf("sleep(%.4f) %s: overshoot mean %.1f us, p50 %.1f us, p99 %.1f us\n",
         span, label, mean * 1e6, p50 * 1e6, p99 * 1e6)
end
