# Thread#raise: raising an exception in another thread (CRuby 3.1 Thread docs).

class ThreadRaiseTest < MnTest::Case
  class CustomError < StandardError; end

  # A thread that reports the exception it receives while blocked in Thread.stop.
  def catching_thread
    caught = Queue.new
    t = Thread.new do
      begin
        Thread.stop
        caught << :not_raised
      rescue Exception => e
        caught << e
      end
    end
    wait_until("thread stopped") { t.stop? }
    [t, caught]
  end

  def test_raise_with_class_and_message_in_a_sleeping_thread
    t, caught = catching_thread
    t.raise(ArgumentError, "from outside")
    e = caught.pop
    assert_kind_of ArgumentError, e
    assert_equal "from outside", e.message
    t.join
  end

  def test_raise_with_a_string_raises_runtime_error
    t, caught = catching_thread
    t.raise("just a message")
    e = caught.pop
    assert_equal RuntimeError, e.class
    assert_equal "just a message", e.message
    t.join
  end

  def test_raise_with_an_exception_object_raises_that_object
    t, caught = catching_thread
    exc = CustomError.new("mine")
    t.raise(exc)
    assert_same exc, caught.pop
    t.join
  end

  def test_raise_with_a_custom_class
    t, caught = catching_thread
    t.raise(CustomError, "custom")
    e = caught.pop
    assert_kind_of CustomError, e
    assert_equal "custom", e.message
    t.join
  end

  def test_raise_without_arguments_raises_runtime_error
    t, caught = catching_thread
    t.raise
    assert_equal RuntimeError, caught.pop.class
    t.join
  end

  def test_unrescued_raise_terminates_the_thread_and_join_reraises_it
    t = Thread.new do
      Thread.current.report_on_exception = false
      Thread.stop
    end
    wait_until("thread stopped") { t.stop? }
    t.raise(IOError, "io failed")
    e = assert_raise(IOError) { t.join }
    assert_equal "io failed", e.message
    assert_nil t.status
  end

  def test_raise_interrupts_queue_pop
    q = Queue.new
    t = Thread.new do
      begin
        q.pop
      rescue CustomError => e
        e.message
      end
    end
    wait_until("thread blocked on pop") { t.stop? }
    t.raise(CustomError, "wake up")
    assert_equal "wake up", t.value
    assert_equal 0, q.num_waiting
  end

  def test_raise_interrupts_sleep
    t = Thread.new do
      begin
        sleep
      rescue CustomError
        :interrupted
      end
    end
    wait_until("thread sleeping") { t.stop? }
    t.raise(CustomError)
    assert_equal :interrupted, t.value
  end

  def test_raise_runs_ensure_blocks_in_the_target
    log = Queue.new
    t = Thread.new do
      Thread.current.report_on_exception = false
      begin
        Thread.stop
      ensure
        log << :ensure
      end
    end
    wait_until("thread stopped") { t.stop? }
    t.raise(CustomError)
    assert_raise(CustomError) { t.join }
    assert_equal :ensure, log.pop
  end

  def test_raise_interrupts_a_busy_thread
    started = Queue.new
    t = Thread.new do
      started << true
      begin
        loop {}
      rescue CustomError
        :stopped_spinning
      end
    end
    started.pop
    t.raise(CustomError)
    assert_equal :stopped_spinning, t.value
  end

  def test_raise_on_a_dead_thread_does_nothing
    t = Thread.new { :done }
    t.join
    assert_nil t.raise(CustomError)
    assert_equal :done, t.value
  end

  def test_raise_in_main_thread_from_another_thread
    t = Thread.new { Thread.main.raise(CustomError, "to main") }
    e = assert_raise(CustomError) do
      t.join
      sleep 10 # the exception arrives here at the latest
    end
    assert_equal "to main", e.message
  end
end
