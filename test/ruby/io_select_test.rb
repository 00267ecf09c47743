# IO.select on the event loop (CRuby 3.1 semantics).

class IOSelectTest < MnTest::Case
  def setup
    @r, @w = IO.pipe
  end

  def teardown
    [@r, @w].each { |io| io.close unless io.closed? }
  end

  def test_select_returns_the_ready_ios
    @w.write "x"
    assert_equal [[@r], [@w], []], IO.select([@r], [@w], [], 1)
  end

  def test_select_times_out_with_nil
    t0 = MnTest.now
    assert_nil IO.select([@r], nil, nil, 0.02)
    assert MnTest.now - t0 >= 0.02
    assert_nil IO.select([@r], nil, nil, 0)
  end

  def test_a_thread_in_select_parks_until_another_writes
    t = Thread.new { IO.select([@r]) }
    wait_until("the selecting thread to block") { t.status == "sleep" }
    @w.write "go"
    assert_equal [[@r], [], []], t.value
  end

  def test_select_wakes_for_the_one_ready_among_many
    pipes = Array.new(50) { IO.pipe }
    t = Thread.new { IO.select(pipes.map(&:first)) }
    wait_until("the selecting thread to block") { t.status == "sleep" }
    pipes[37][1].write "!"
    assert_equal [[pipes[37][0]], [], []], t.value
    pipes.flatten.each(&:close)
  end

  def test_bytes_already_buffered_count_as_readable
    @w.write "line1\nline2\n"
    assert_equal "line1\n", @r.gets       # reads ahead: line2 sits in the IO's buffer
    assert_equal [[@r], [], []], IO.select([@r], nil, nil, 0)
  end

  def test_select_works_on_descriptors_above_fd_setsize
    pipes = []
    begin
      600.times { pipes << IO.pipe }             # 1,200 descriptors: past select(2)'s 1,024
    rescue Errno::EMFILE
      pipes.flatten.each(&:close)
      skip "the descriptor limit is below 1,300 here"
    end
    r, w = pipes.last
    assert r.fileno > 1024
    t = Thread.new { IO.select([r], nil, nil, 5) }
    wait_until("the selecting thread to block") { t.status == "sleep" }
    w.write "x"
    assert_equal [[r], [], []], t.value
    pipes.flatten.each(&:close)
  end

  def test_select_on_a_closed_io_raises_ioerror
    @r.close
    assert_raise(IOError) { IO.select([@r], nil, nil, 0) }
  end

  def test_select_on_a_non_io_raises_type_error
    assert_raise(TypeError) { IO.select([42], nil, nil, 0) }
  end

  def test_select_with_a_bad_timeout_raises
    assert_raise(TypeError) { IO.select([@r], nil, nil, "1") }
    assert_raise(ArgumentError) { IO.select([@r], nil, nil, -1) }
  end
end
