# Constants read in a loop (the shape of CRuby's benchmark/vm_const.yml): a top-level constant twice
# per iteration, a qualified Outer::Inner and a method of a nested class reading its lexical scope's
# constant.
Const = 1
module Outer
  Inner = 2
  class Reader
    def read = Inner
  end
end
r = Outer::Reader.new
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
i = 0
while i < 2_000_000
  j = Const
  k = Const
  j = Outer::Inner
  k = r.read
  i += 1
end
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
