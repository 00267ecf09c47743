# Timeout.timeout (CRuby's timeout library, 3.x semantics: one shared watcher thread).

class TimeoutTest < MnTest::Case
  def setup
    require "timeout"
  end

  def test_returns_the_block_value
    assert_equal :done, Timeout.timeout(5) { :done }
  end

  def test_yields_the_seconds
    assert_equal 5, Timeout.timeout(5) { |s| s }
  end

  def test_nil_and_zero_mean_no_timeout
    assert_equal [nil, :ok], Timeout.timeout(nil) { |s| [s, :ok] }
    assert_equal [0, :ok], Timeout.timeout(0) { |s| [s, :ok] }
  end

  def test_expiry_raises_timeout_error_execution_expired
    e = assert_raise(Timeout::Error) { Timeout.timeout(0.05) { sleep 5 } }
    assert_equal "execution expired", e.message
    assert_kind_of RuntimeError, e
  end

  def test_expiry_interrupts_a_blocked_queue_pop
    q = Queue.new
    t0 = MnTest.now
    assert_raise(Timeout::Error) { Timeout.timeout(0.05) { q.pop } }
    assert MnTest.now - t0 < 3, "the pop was interrupted in time"
  end

  def test_rescue_inside_the_block_does_not_swallow_the_timeout
    swallowed = false
    assert_raise(Timeout::Error) do
      Timeout.timeout(0.05) do
        begin
          sleep 5
        rescue StandardError
          swallowed = true
        end
      end
    end
    refute swallowed
  end

  def test_custom_class_and_message
    e = assert_raise(ArgumentError) { Timeout.timeout(0.05, ArgumentError, "too slow") { sleep 5 } }
    assert_equal "too slow", e.message
  end

  def test_custom_class_is_raised_inside_the_block
    seen = nil
    Timeout.timeout(0.05, ArgumentError) do
      begin
        sleep 5
      rescue ArgumentError => e
        seen = e
      end
    end
    assert_kind_of ArgumentError, seen
  end

  def test_outer_timeout_expiring_inside_an_inner_one
    e = assert_raise(Timeout::Error) { Timeout.timeout(0.05) { Timeout.timeout(5) { sleep 5 } } }
    assert_equal "execution expired", e.message
  end

  def test_inner_timeout_expiring_inside_an_outer_one
    result = Timeout.timeout(5) do
      begin
        Timeout.timeout(0.05) { sleep 5 }
      rescue Timeout::Error
        :inner_expired
      end
    end
    assert_equal :inner_expired, result
  end

  def test_exception_from_the_block_propagates
    e = assert_raise(IndexError) { Timeout.timeout(5) { raise IndexError, "mine" } }
    assert_equal "mine", e.message
  end

  # Sleeping past the deadline of a finished timeout: nothing may be raised into this thread.
  def test_a_finished_block_is_not_interrupted_later
    Timeout.timeout(0.05) { :quick }
    assert_equal 0, sleep(0.2)
  end

  # The check arrived with CRuby 3.3's timeout 0.4 (3.1's waits zero seconds): mnrb-only here.
  def test_negative_seconds_raise_argument_error
    mnrb_only
    e = assert_raise(ArgumentError) { Timeout.timeout(-1) { } }
    assert_equal "Timeout sec must be a non-negative number", e.message
  end

  def test_timeouts_in_many_threads_share_one_watcher
    before = Thread.list.size
    Timeout.timeout(5) { }                                # the watcher exists from here on
    base = Thread.list.size
    assert base <= before + 1
    threads = 20.times.map do |i|
      Thread.new do
        begin
          Timeout.timeout(i.even? ? 0.05 : 5) { sleep(i.even? ? 5 : 0.01); :finished }
        rescue Timeout::Error
          :expired
        end
      end
    end
    values = threads.map(&:value)
    assert_equal 10, values.count(:expired)
    assert_equal 10, values.count(:finished)
    assert_equal base, Thread.list.size
  end

  def test_many_sequential_timeouts_leave_no_threads
    Timeout.timeout(5) { }
    base = Thread.list.size
    200.times { Timeout.timeout(5) { } }
    assert_equal base, Thread.list.size
  end

  def test_module_function_and_include
    obj = Object.new
    obj.extend(Timeout)
    assert_equal 3, obj.send(:timeout, 5) { 3 }
  end
end
