# GvlTracing (the gvl-tracing gem's API, built into mnrb): starting, stopping, the block form and
# bad arguments. What the traces contain is checked by test/trace/test_traces.py.

class GvlTracingTest < MnTest::Case
  PATH = "/tmp/mnrb-gvl-tracing-test-#{Process.pid rescue 0}.pftrace"

  def setup
    mnrb_only
  end

  def teardown
    GvlTracing.stop if mnrb? && GvlTracing.running?
  end

  def test_start_and_stop_write_a_trace_file
    GvlTracing.start(PATH)
    assert GvlTracing.running?
    Thread.new { }.join
    GvlTracing.stop
    assert !GvlTracing.running?
    assert File.size(PATH) > 0
  end

  def test_starting_twice_raises_already_started
    GvlTracing.start(PATH)
    e = assert_raise(RuntimeError) { GvlTracing.start(PATH + ".2") }
    assert_equal "Already started", e.message
    assert GvlTracing.running?
  end

  def test_stopping_when_not_running_raises
    e = assert_raise(RuntimeError) { GvlTracing.stop }
    assert_equal "Tracing not running", e.message
  end

  def test_dumping_when_not_running_raises
    e = assert_raise(RuntimeError) { GvlTracing.dump }
    assert_equal "Tracing not running", e.message
  end

  def test_the_block_form_stops_even_when_the_block_raises
    assert_raise(ZeroDivisionError) { GvlTracing.start(PATH) { 1 / 0 } }
    assert !GvlTracing.running?
  end

  def test_os_threads_view_enabled_must_be_true_or_false
    e = assert_raise(ArgumentError) { GvlTracing.start(PATH, os_threads_view_enabled: :yes) }
    assert_equal "os_threads_view_enabled must be true/false", e.message
    assert !GvlTracing.running?
  end

  def test_flight_recorder_takes_a_positive_number_of_megabytes
    [0, -1, "8", 1.5].each do |bad|
      assert_raise(ArgumentError) { GvlTracing.start(PATH, flight_recorder: bad) }
    end
    GvlTracing.start(PATH, flight_recorder: 1) { Thread.new { }.join }
    assert File.size(PATH) > 0
  end

  def test_the_file_must_be_a_string
    e = assert_raise(TypeError) { GvlTracing.start(42) }
    assert_equal "no implicit conversion of Integer into String", e.message
  end

  def test_an_unwritable_path_raises_without_starting
    e = assert_raise(RuntimeError) { GvlTracing.start("/nonexistent-dir/x.pftrace") }
    assert e.message.start_with?("cannot trace to /nonexistent-dir/x.pftrace: "), e.message
    assert !GvlTracing.running?
  end

  def test_tracing_can_start_again_after_a_stop
    2.times do
      GvlTracing.start(PATH) { Thread.new { }.join }
    end
    assert File.size(PATH) > 0
  end
end
