# Wake-up latency beside a CPU-bound thread: a thread sleeps 1 ms 200 times while another counts;
# how late each wake-up runs (timer, event loop, preemption of the counter at a safepoint).
#   wake_latency.rb
done = false
lat = []
sleeper = Thread.new do
  200.times do
    t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    sleep 0.001
    lat << Process.clock_gettime(Process::CLOCK_MONOTONIC) - t - 0.001
  end
  done = true
end
counter = Thread.new { i = 0; i += 1 until done; i }
sleeper.join
counter.join
lat.sort!
printf("late by: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms\n",
       lat[100] * 1e3, lat[180] * 1e3, lat[198] * 1e3, lat[-1] * 1e3)
