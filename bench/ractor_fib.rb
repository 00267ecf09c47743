# CPU-parallel work (seed 003's comparison): fib(N) x 4, run by 1 ractor, by 2 ractors (two each),
# and by 2 threads of one ractor (one GVL: no parallelism). Prints wall time and the process's CPU
# time per wall second (about 2 when two native threads compute in parallel, whatever else loads
# the machine). Each of the three is run REPS times, interleaved, and its fastest run is printed (one
# slow round on a shared machine moved the ratio from 2.0x to 1.5x).   mnrb bench/ractor_fib.rb [N] [REPS]
def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end
n = (ARGV[0] || 30).to_i
reps = (ARGV[1] || 3).to_i

def timed
  w = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  c = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  v = yield
  wall = Process.clock_gettime(Process::CLOCK_MONOTONIC) - w
  [wall, (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c) / wall, v]
end

best = {}
reps.times do
  runs = {
    one: timed { Ractor.new(n) { |k| 4.times.map { fib(k) } }.take },
    two: timed { 2.times.map { Ractor.new(n) { |k| 2.times.map { fib(k) } } }.flat_map(&:take) },
    thr: timed { 2.times.map { Thread.new { 2.times.map { fib(n) } } }.flat_map(&:value) },
  }
  runs.each { |k, r| best[k] = r if best[k].nil? || r[0] < best[k][0] }
end
one, c1, v1 = best[:one]
two, c2, v2 = best[:two]
thr, c3, v3 = best[:thr]
raise "results differ" unless v1 == v2 && v2 == v3
printf("fib(%d) x 4: 1 ractor %.3f s (%.2f CPUs), 2 ractors %.3f s (%.2f CPUs, %.2fx faster), " \
       "2 threads %.3f s (%.2f CPUs, %.2fx)\n", n, one, c1, two, c2, one / two, thr, c3, one / thr)
