# Thread.report_on_exception and Thread.abort_on_exception are one pair for the whole process, as
# CRuby's (they are its VM's, and a process has one VM for all its ractors; checked on CRuby 3.3.8):
# a ractor started after the main ractor set them sees them, its threads start with them, and a
# ractor's setting is the main ractor's too. Before sem20j each ractor had its own pair (report on,
# abort off), so `Thread.report_on_exception = false` did not silence a ractor's failure report.

class RactorThreadFlagsTest < MnTest::Case
  def setup
    @report, @abort = Thread.report_on_exception, Thread.abort_on_exception
  end

  def teardown
    Thread.report_on_exception = @report
    Thread.abort_on_exception = @abort
  end

  def test_a_ractor_sees_the_main_ractor_s_report_on_exception
    Thread.report_on_exception = false
    r = Ractor.new { [Thread.report_on_exception, Thread.current.report_on_exception, Thread.new {}.report_on_exception] }
    assert_equal [false, false, false], r.take
    Thread.report_on_exception = true
    r = Ractor.new { [Thread.report_on_exception, Thread.current.report_on_exception, Thread.new {}.report_on_exception] }
    assert_equal [true, true, true], r.take
  end

  def test_a_ractor_s_setting_is_the_process_s
    Ractor.new { Thread.report_on_exception = false; Thread.abort_on_exception = true }.take
    assert_equal [false, true], [Thread.report_on_exception, Thread.abort_on_exception]
    assert_equal false, Thread.new {}.report_on_exception
  end

  def test_a_ractor_sees_the_main_ractor_s_abort_on_exception
    Thread.abort_on_exception = true
    assert_equal true, Ractor.new { Thread.abort_on_exception }.take
    Thread.abort_on_exception = false
    assert_equal false, Ractor.new { Thread.abort_on_exception }.take
  end
end
