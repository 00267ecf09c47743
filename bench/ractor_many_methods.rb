# Code with many methods (issue 20): one class gets M methods (defined from generated source, as a
# large program's class would be) and every one is called CALLS times, in the main ractor, then in
# one ractor, then in R ractors at once (each its own copy of the class). A ractor should run any
# code at the main ractor's speed, and R ractors should take no longer than one on R cores.
#   mnrb bench/ractor_many_methods.rb [M] [CALLS] [R]
m = (ARGV[0] || 30_000).to_i
calls = (ARGV[1] || 20).to_i
nr = (ARGV[2] || 2).to_i
clock = Process::CLOCK_MONOTONIC

def work(m, calls)
  src = +"class ManyMethods\n"
  m.times { |i| src << "def m#{i}(x) x + #{i} end\n" }
  src << "end\n"
  eval(src)
  # The caller is generated too, so each call site is a plain OP_SEND, as in written code.
  caller = +"def call_all(o, x)\n"
  m.times { |i| caller << "x = o.m#{i}(x) & 0xffff\n" }
  caller << "x\nend\n"
  eval(caller)
  o = ManyMethods.new
  x = 0
  calls.times { x = call_all(o, x) }
  x
end

cpu = Process::CLOCK_PROCESS_CPUTIME_ID
t = Process.clock_gettime(clock); c = Process.clock_gettime(cpu)
main = work(m, calls)
t_main = Process.clock_gettime(clock) - t; c_main = Process.clock_gettime(cpu) - c

t = Process.clock_gettime(clock); c = Process.clock_gettime(cpu)
one = Ractor.new(m, calls) { |mm, cc| work(mm, cc) }.take
t_one = Process.clock_gettime(clock) - t; c_one = Process.clock_gettime(cpu) - c

t = Process.clock_gettime(clock); c = Process.clock_gettime(cpu)
many = nr.times.map { Ractor.new(m, calls) { |mm, cc| work(mm, cc) } }.map(&:take)
t_many = Process.clock_gettime(clock) - t; c_many = Process.clock_gettime(cpu) - c
raise "wrong result" unless one == main && many.all? { |v| v == main }

printf("many methods M=%d calls=%d: main %.3f s (cpu %.3f), 1 ractor %.3f s (cpu %.3f; %.2fx main), " \
       "%d ractors %.3f s (cpu %.3f; %.2fx of 1, %.2f CPUs busy)\n",
       m, calls, t_main, c_main, t_one, c_one, t_one / t_main, nr, t_many, c_many, t_many / t_one, c_many / t_many)
