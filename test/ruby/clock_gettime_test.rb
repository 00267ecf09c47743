# Process.clock_gettime: the four clocks scripts use and every unit (CRuby's Process docs).

class ClockGettimeTest < MnTest::Case
  CLOCKS = [:CLOCK_MONOTONIC, :CLOCK_REALTIME, :CLOCK_PROCESS_CPUTIME_ID, :CLOCK_THREAD_CPUTIME_ID]

  def clock(name)
    Process.const_get(name)
  end

  def test_every_clock_gives_float_seconds_by_default
    CLOCKS.each do |c|
      v = Process.clock_gettime(clock(c))
      assert_kind_of Float, v
      assert v >= 0, "#{c}: #{v}"
    end
  end

  def test_realtime_is_the_epoch_time
    assert_in_delta Time.now.to_f, Process.clock_gettime(Process::CLOCK_REALTIME), 5.0
  end

  def test_monotonic_does_not_go_back
    a = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    b = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    assert b >= a
  end

  def test_float_units
    [:float_second, :float_millisecond, :float_microsecond].each do |u|
      assert_kind_of Float, Process.clock_gettime(Process::CLOCK_MONOTONIC, u)
    end
  end

  def test_integer_units
    [:second, :millisecond, :microsecond, :nanosecond].each do |u|
      assert_kind_of Integer, Process.clock_gettime(Process::CLOCK_MONOTONIC, u)
    end
  end

  def test_units_agree_with_each_other
    s  = Process.clock_gettime(Process::CLOCK_MONOTONIC, :second)
    ms = Process.clock_gettime(Process::CLOCK_MONOTONIC, :millisecond)
    us = Process.clock_gettime(Process::CLOCK_MONOTONIC, :microsecond)
    ns = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    fs = Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_second)
    assert s <= ms / 1000 && ms / 1000 <= s + 1
    assert ms <= us / 1000 && us / 1000 <= ms + 1000
    assert us <= ns / 1000 && ns / 1000 <= us + 1_000_000
    assert_in_delta ns / 1e9, fs, 1.0
  end

  def test_process_cpu_time_grows_with_work
    a = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    x = 0
    200_000.times { |i| x += i }
    b = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    assert b > a
  end

  def test_thread_cpu_time_grows_with_the_threads_work
    v = Thread.new do
      a = Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID)
      x = 0
      200_000.times { |i| x += i }
      Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID) - a
    end.value
    assert v > 0
  end

  def test_sleep_does_not_count_as_process_cpu_time
    a = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    sleep 0.2
    assert Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - a < 0.15
  end

  def test_unknown_unit_raises_argument_error
    e = assert_raise(ArgumentError) { Process.clock_gettime(Process::CLOCK_MONOTONIC, :fortnight) }
    assert e.message.include?("unexpected unit")
  end

  # Errno::EINVAL in CRuby; RuntimeError while mnrb has no SystemCallError.
  def test_unknown_clock_raises_errno
    klass = Object.const_defined?(:SystemCallError) ? SystemCallError : RuntimeError
    assert_raise(klass) { Process.clock_gettime(12345) }
  end

  def test_clock_getres
    assert Process.clock_getres(Process::CLOCK_MONOTONIC) > 0
  end
end
