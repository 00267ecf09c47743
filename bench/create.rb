# Creating many threads that park at once: time per creation and resident memory per thread.
#   mnrb bench/create.rb [N]
def rss_kib
  File.read("/proc/self/status").split("\n").each do |l|
    return l.split[1].to_i if l.start_with?("VmRSS:")
  end
  0
end
n = (ARGV[0] || 10_000).to_i
q = Queue.new
GC.start
before = rss_kib
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
threads = Array.new(n) { Thread.new { q.pop } }
created = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
Thread.pass until q.num_waiting == n      # each has run and parked
dt = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
GC.start
after = rss_kib
printf("create n=%d: Thread.new %.1f ms (%.2f us/thread); all started and parked %.1f ms; %.1f KiB resident per thread\n",
       n, created * 1e3, created * 1e6 / n, dt * 1e3, (after - before).to_f / n)
n.times { q << nil }
threads.each(&:join)
