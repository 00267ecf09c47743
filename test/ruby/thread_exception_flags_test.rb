# Thread.report_on_exception / Thread#report_on_exception and Thread.abort_on_exception /
# Thread#abort_on_exception (CRuby 3.1 Thread docs). What gets printed is checked by
# test/ruby/expect/report_on_exception*.rb and abort_on_exception*.rb.

class ThreadReportOnExceptionTest < MnTest::Case
  def teardown
    Thread.report_on_exception = true
  end

  def test_global_report_on_exception_defaults_to_true
    assert_equal true, Thread.report_on_exception
  end

  def test_new_thread_reports_by_default
    assert_equal true, Thread.new { Thread.current.report_on_exception }.value
  end

  def test_new_thread_copies_the_global_flag_at_creation
    Thread.report_on_exception = false
    t = Thread.new { Thread.stop }
    Thread.report_on_exception = true
    assert_equal false, t.report_on_exception
    wait_until("thread stopped") { t.stop? }
    t.run
    t.join
  end

  def test_instance_flag_can_be_changed
    t = Thread.new { Thread.stop }
    t.report_on_exception = false
    assert_equal false, t.report_on_exception
    wait_until("thread stopped") { t.stop? }
    t.run
    t.join
  end

  def test_changing_the_instance_flag_does_not_change_the_global_one
    Thread.new { Thread.current.report_on_exception = false }.join
    assert_equal true, Thread.report_on_exception
  end

  def test_exception_still_reaches_join_when_not_reported
    t = Thread.new do
      Thread.current.report_on_exception = false
      raise IndexError, "quiet"
    end
    e = assert_raise(IndexError) { t.join }
    assert_equal "quiet", e.message
  end
end

class ThreadAbortOnExceptionTest < MnTest::Case
  class AbortError < StandardError; end

  def teardown
    Thread.abort_on_exception = false
  end

  def test_global_abort_on_exception_defaults_to_false
    assert_equal false, Thread.abort_on_exception
  end

  def test_instance_abort_on_exception_defaults_to_false
    assert_equal false, Thread.new { Thread.current.abort_on_exception }.value
    assert_equal false, Thread.main.abort_on_exception
  end

  def test_instance_flag_is_not_copied_from_the_global_flag
    Thread.abort_on_exception = true
    assert_equal false, Thread.new { Thread.current.abort_on_exception }.value
  end

  def test_global_flag_can_be_set
    Thread.abort_on_exception = true
    assert_equal true, Thread.abort_on_exception
  end

  def test_without_abort_an_exception_only_kills_its_thread
    t = Thread.new do
      Thread.current.report_on_exception = false
      raise AbortError, "contained"
    end
    assert_raise(AbortError) { t.join }
    assert Thread.main.alive?
  end

  # CRuby raises the thread's exception in the main thread (here interrupting sleep).
  def test_instance_abort_on_exception_raises_in_the_main_thread
    e = assert_raise(AbortError) do
      Thread.new do
        Thread.current.report_on_exception = false
        Thread.current.abort_on_exception = true
        raise AbortError, "abort main"
      end
      sleep 10
    end
    assert_equal "abort main", e.message
  end

  def test_global_abort_on_exception_raises_in_the_main_thread
    Thread.abort_on_exception = true
    e = assert_raise(AbortError) do
      Thread.new do
        Thread.current.report_on_exception = false
        raise AbortError, "global abort"
      end
      sleep 10
    end
    assert_equal "global abort", e.message
  end

  def test_aborting_thread_itself_terminates_with_the_exception
    t = nil
    assert_raise(AbortError) do
      t = Thread.new do
        Thread.current.report_on_exception = false
        Thread.current.abort_on_exception = true
        raise AbortError, "both"
      end
      sleep 10
    end
    t.join rescue nil
    assert_nil t.status
  end
end
