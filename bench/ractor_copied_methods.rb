# Calls into a big class copied at Ractor.new (issue 20): the main ractor defines M methods, then
# calls each of them LAPS times through __send__, in the main ractor or in a ractor (whose copy of the
# class Ractor.new made). Prints the process CPU time of the calls alone.
#   mnrb bench/ractor_copied_methods.rb main|ractor [M] [LAPS]
where = ARGV[0] || "ractor"
m = (ARGV[1] || 30_000).to_i
laps = (ARGV[2] || 30).to_i
src = +"class ManyMethods\n"
m.times { |i| src << "def m#{i}(x) x + #{i} end\n" }
src << "end\n"
eval(src)

def call_all(m, laps)
  o = ManyMethods.new
  names = m.times.map { |i| :"m#{i}" }
  clock = Process::CLOCK_PROCESS_CPUTIME_ID
  t = Process.clock_gettime(clock)
  laps.times { names.each { |n| o.__send__(n, 1) } }
  Process.clock_gettime(clock) - t
end

dt = where == "main" ? call_all(m, laps) : Ractor.new(m, laps) { |mm, ll| call_all(mm, ll) }.take
printf("%d calls of a %d-method class in the %s: %.3f s CPU\n", m * laps, m, where == "main" ? "main ractor" : "ractor", dt)
