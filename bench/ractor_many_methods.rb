# Code with many methods (issue 20): one class gets M methods (defined from generated source, as a
# large program's class would be) and a generated method calls every one of them; it runs CALLS
# times. Measured in the main ractor, in one ractor, in R ractors at once (each its own class), and
# in 1 and in R fresh processes of the same interpreter (each in its main ractor: nothing of the
# runtime shared, so R processes / 1 process is what the machine itself gives R such jobs at that
# moment; a process's time includes its boot). Targets: a ractor runs any code at the main ractor's
# speed (1 ractor / main = 1.00x), and R ractors scale (R ractors / 1 ractor about R processes / 1
# process, ideally 1.00x). The class is anonymous and dropped after each run, so that Ractor.new has
# none of it to copy and every run starts alike; the five are run REPS times, interleaved, the fastest
# of each printed, with the CPUs obtained by the R ractors (CPU time per wall second). Then the time
# of an empty Ractor.new, before and after the main ractor defines the M methods in a named class.
# CRuby's rows run this same script.
#   mnrb bench/ractor_many_methods.rb [M] [CALLS] [R] [REPS]
m = (ARGV[0] || 30_000).to_i
calls = (ARGV[1] || 20).to_i
nr = (ARGV[2] || 2).to_i
reps = (ARGV[3] || 3).to_i

def work(m, calls)
  src = +""
  m.times { |i| src << "def m#{i}(x) x + #{i} end\n" }
  # The caller is generated too, so each call site is a plain OP_SEND, as in written code.
  src << "def call_all(o, x)\n"
  m.times { |i| src << "x = o.m#{i}(x) & 0xffff\n" }
  src << "x\nend\n"
  klass = Class.new
  klass.class_eval(src)
  o = klass.new
  x = 0
  calls.times { x = o.call_all(o, x) }
  x
end

def timed
  w = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  c = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  t = Process.times
  v = yield
  wall = Process.clock_gettime(Process::CLOCK_MONOTONIC) - w
  kids = Process.times.then { |e| e.cutime + e.cstime - t.cutime - t.cstime }
  [wall, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c + kids, v]
end

if m == -1                                    # a process of the processes' rows: -1 M CALLS
  print work(calls, nr)
  exit
end

EXE = File.readlink("/proc/self/exe")
def spawned(n, m, calls)
  n.times.map { IO.popen([EXE, "-W0", __FILE__, "-1", m.to_s, calls.to_s]) }.map { |io| v = io.read.to_i; io.close; v }
end

best = {}
reps.times do
  runs = {
    main: timed { work(m, calls) },
    one: timed { Ractor.new(m, calls) { |mm, cc| work(mm, cc) }.take },
    many: timed { nr.times.map { Ractor.new(m, calls) { |mm, cc| work(mm, cc) } }.map(&:take) },
    proc1: timed { spawned(1, m, calls) },
    procs: timed { spawned(nr, m, calls) },
  }
  raise "wrong result" unless runs[:one][2] == runs[:main][2] && (runs[:many][2] + runs[:procs][2] + runs[:proc1][2]).all? { |v| v == runs[:main][2] }
  runs.each { |k, r| best[k] = r if best[k].nil? || r[0] < best[k][0] }
end
t_main, = best[:main]
t_one, = best[:one]
t_many, c_many = best[:many]
t_proc1, = best[:proc1]
t_procs, = best[:procs]
# Last, Ractor.new itself once the main ractor holds the M methods (a named class, as a program's):
# mnrb copies a program's definitions into every new ractor (code.c), CRuby shares its classes.
def creation(reps)
  reps.times.map { t = Process.clock_gettime(Process::CLOCK_MONOTONIC); Ractor.new { nil }.take
                   Process.clock_gettime(Process::CLOCK_MONOTONIC) - t }.min
end
new_before = creation(reps)
Object.const_set(:ManyMethods, Class.new).class_eval(m.times.map { |i| "def m#{i}(x) x + #{i} end\n" }.join)
new_after = creation(reps)

printf("%d methods in one class, %d calls of each, best of %d: main %.3f s, 1 ractor %.3f s (%.2fx main's), " \
       "%d ractors %.3f s (%.2fx 1 ractor's; %.2f CPUs); 1 process %.3f s, %d processes %.3f s (%.2fx 1 process'); " \
       "Ractor.new { nil }.take %.2f ms, %.2f ms once main has the %d methods\n",
       m, calls, reps, t_main, t_one, t_one / t_main, nr, t_many, t_many / t_one, c_many / t_many,
       t_proc1, nr, t_procs, t_procs / t_proc1, new_before * 1e3, new_after * 1e3, m)
