# Process, as in CRuby 3.1's process.c.

assert('Process::CLOCK_* are the POSIX clock ids') do
  assert_equal 0, Process::CLOCK_REALTIME
  assert_equal 1, Process::CLOCK_MONOTONIC
  assert_equal 2, Process::CLOCK_PROCESS_CPUTIME_ID
  assert_equal 3, Process::CLOCK_THREAD_CPUTIME_ID
end

assert('Process.clock_gettime returns Float seconds by default') do
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  assert_kind_of Float, t
  assert_kind_of Float, Process.clock_gettime(Process::CLOCK_MONOTONIC, nil)
  assert_true Process.clock_gettime(Process::CLOCK_MONOTONIC) >= t
end

assert('Process.clock_gettime is monotonic across units') do
  ns = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
  us = Process.clock_gettime(Process::CLOCK_MONOTONIC, :microsecond)
  ms = Process.clock_gettime(Process::CLOCK_MONOTONIC, :millisecond)
  s  = Process.clock_gettime(Process::CLOCK_MONOTONIC, :second)
  [ns, us, ms, s].each { |v| assert_kind_of Integer, v }
  assert_true us >= ns / 1000
  assert_true ms >= ns / 1000000
  assert_true s >= ns / 1000000000
end

assert('Process.clock_gettime Float units scale seconds') do
  s = Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_second)
  ms = Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_millisecond)
  us = Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_microsecond)
  [s, ms, us].each { |v| assert_kind_of Float, v }
  assert_true ms >= s * 1000 - 1
  assert_true us >= ms * 1000 - 1000
end

assert('Process.clock_gettime measures CPU time') do
  assert_kind_of Float, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  assert_kind_of Integer, Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID, :nanosecond)
end

assert('Process.clock_gettime truncates a Float clock id') do
  assert_kind_of Float, Process.clock_gettime(1.5)
end

assert('Process.clock_gettime rejects an unknown unit') do
  assert_raise_with_message(ArgumentError, 'unexpected unit: foo') do
    Process.clock_gettime(Process::CLOCK_MONOTONIC, :foo)
  end
  assert_raise_with_message(ArgumentError, 'unexpected unit: second') do
    Process.clock_gettime(Process::CLOCK_MONOTONIC, 'second')
  end
end

assert('Process.clock_gettime rejects a bad clock id') do
  assert_raise(StandardError) { Process.clock_gettime(12345) }
  assert_raise(StandardError) { Process.clock_gettime(:FOO) }
  assert_raise_with_message(TypeError, 'no implicit conversion of String into Integer') do
    Process.clock_gettime('x')
  end
  assert_raise_with_message(TypeError, 'no implicit conversion from nil to integer') do
    Process.clock_gettime(nil)
  end
  assert_raise(ArgumentError) { Process.clock_gettime }
end

assert('Process.clock_getres') do
  assert_float 1.0e-09, Process.clock_getres(Process::CLOCK_MONOTONIC)
  assert_equal 1, Process.clock_getres(Process::CLOCK_MONOTONIC, :nanosecond)
end

assert('Process.pid and $$') do
  assert_kind_of Integer, Process.pid
  assert_true Process.pid > 0
  assert_equal Process.pid, $$
  assert_kind_of Integer, Process.ppid
end

assert('Process.times returns a Process::Tms') do
  t = Process.times
  assert_kind_of Process::Tms, t
  assert_equal [:utime, :stime, :cutime, :cstime], Process::Tms.members
  [t.utime, t.stime, t.cutime, t.cstime].each { |v| assert_kind_of Float, v }
  assert_true t.utime + t.stime > 0
end
