# Managed I/O on pipes (CRuby 3.1 semantics): a thread blocked reading or writing a pipe parks and
# lets the other threads run; closing, EOF, EPIPE and the non-blocking variants behave as in CRuby.

class IOPipeTest < MnTest::Case
  def setup
    @r, @w = IO.pipe
  end

  def teardown
    @r.close unless @r.closed?
    @w.close unless @w.closed?
  end

  def sleeping?(t)
    t.status == "sleep" || t.status == false
  end

  # the issue's example: in mnrb before managed I/O, the reader held the GVL and the program hung
  def test_a_thread_blocked_in_gets_lets_the_others_run
    reader = Thread.new { @r.gets }
    ticks = []
    Thread.new { 3.times { |i| sleep 0.01; ticks << i } }.join
    assert_equal [0, 1, 2], ticks
    assert reader.alive?, "the reader cannot have read anything yet"
    @w.puts "hi"
    assert_equal "hi\n", reader.value
  end

  def test_lines_written_slowly_arrive_in_order_through_each_line
    writer = Thread.new do
      5.times { |i| @w.puts "line #{i}"; sleep 0.002 }
      @w.close
    end
    lines = []
    @r.each_line { |l| lines << l.chomp }
    writer.join
    assert_equal (0...5).map { |i| "line #{i}" }, lines
  end

  def test_a_writer_filling_the_pipe_waits_for_the_reader
    data = "abcdefgh" * 131072       # 1 MiB: far more than a pipe holds
    writer = Thread.new { @w.write(data); @w.close; :done }
    wait_until("the writer to block on a full pipe") { sleeping?(writer) }
    got = @r.read
    assert_equal :done, writer.value
    assert_equal data.bytesize, got.bytesize
    assert got == data, "the bytes read differ from the bytes written"
  end

  def test_write_returns_the_number_of_bytes_of_everything_written
    t = Thread.new { @r.read(11) }
    assert_equal 11, @w.write("hello", " ", "world")
    assert_equal "hello world", t.value
  end

  def test_closing_a_stream_another_thread_reads_raises_ioerror_in_that_thread
    reader = Thread.new do
      begin
        @r.read(1)
        :read
      rescue IOError => e
        e
      end
    end
    wait_until("the reader to block") { reader.status == "sleep" }
    @r.close
    e = reader.value
    assert_kind_of IOError, e
    assert_equal "stream closed in another thread", e.message
  end

  # A descriptor in blocking mode (as an inherited STDIN is) is polled before the read, so its
  # reader waits in the event loop too and a close wakes it the same way.
  def test_closing_a_blocking_mode_stream_another_thread_reads_raises_ioerror
    require 'io/nonblock' unless IO.method_defined?(:nonblock=)
    @r.nonblock = false
    reader = Thread.new do
      begin
        @r.read(1)
        :read
      rescue IOError => e
        e.message
      end
    end
    wait_until("the reader to block") { reader.status == "sleep" }
    @r.close
    assert_equal "stream closed in another thread", reader.value
  end

  def test_reading_after_the_writer_closed_gives_eof
    @w.write "last"
    @w.close
    assert_equal "last", @r.gets
    assert_nil @r.gets
    assert_raise(EOFError) { @r.sysread(1) }
    assert_raise(EOFError) { @r.readpartial(1) }
  end

  def test_sysread_on_a_closed_stream_raises_ioerror
    @r.close
    e = assert_raise(IOError) { @r.sysread(1) }
    assert_equal "closed stream", e.message
  end

  def test_writing_to_a_pipe_without_reader_raises_epipe_and_does_not_kill_the_process
    @r.close
    e = assert_raise(Errno::EPIPE) { @w.write "x" }
    assert_kind_of SystemCallError, e
    assert_equal Errno::EPIPE::Errno, e.errno
  end

  def test_readpartial_returns_what_is_there_and_waits_for_the_first_bytes
    t = Thread.new { @r.readpartial(100) }
    wait_until("the reader to block") { t.status == "sleep" }
    @w.write "abc"
    assert_equal "abc", t.value
  end

  def test_read_nonblock_on_an_empty_pipe_raises_wait_readable
    e = assert_raise(IO::EAGAINWaitReadable) { @r.read_nonblock(10) }
    assert_kind_of IO::WaitReadable, e
    assert_kind_of Errno::EAGAIN, e
    assert_equal :wait_readable, @r.read_nonblock(10, exception: false)
    @w.write "xy"
    assert_equal "xy", @r.read_nonblock(10)
    @w.close
    assert_raise(EOFError) { @r.read_nonblock(10) }
    assert_nil @r.read_nonblock(10, exception: false)
  end

  def test_write_nonblock_on_a_full_pipe_raises_wait_writable
    chunk = "z" * 65536
    e = assert_raise(IO::EAGAINWaitWritable) { loop { @w.write_nonblock(chunk) } }
    assert_kind_of IO::WaitWritable, e
    assert_equal :wait_writable, @w.write_nonblock(chunk, exception: false)
  end

  def test_thread_raise_interrupts_a_blocked_read
    reader = Thread.new do
      begin
        @r.read(1)
      rescue RuntimeError => e
        e.message
      end
    end
    wait_until("the reader to block") { reader.status == "sleep" }
    reader.raise RuntimeError, "wake up"
    assert_equal "wake up", reader.value
  end

  def test_thread_kill_ends_a_blocked_read_and_runs_ensure
    ensured = false
    reader = Thread.new do
      begin
        @r.read(1)
      ensure
        ensured = true
      end
    end
    wait_until("the reader to block") { reader.status == "sleep" }
    reader.kill
    reader.join
    assert ensured
    assert_equal false, reader.status
  end

  def test_many_threads_each_blocked_on_its_own_pipe
    pipes = Array.new(100) { IO.pipe }
    readers = pipes.map { |r, _| Thread.new { r.gets } }
    pipes.each_with_index.to_a.reverse.each { |(_, w), i| w.puts "#{i}" }
    assert_equal (0...100).map { |i| "#{i}\n" }, readers.map(&:value)
    pipes.flatten.each(&:close)
  end

  def test_wait_readable_returns_nil_after_its_timeout_and_self_when_ready
    require 'io/wait' unless IO.method_defined?(:wait_readable)
    t0 = MnTest.now
    assert_nil @r.wait_readable(0.02)
    assert MnTest.now - t0 >= 0.02
    @w.write "x"
    assert_same @r, @r.wait_readable(1)
    assert_same @w, @w.wait_writable(1)
  end
end

class IOTimeoutTest < MnTest::Case
  # Ruby 3.2's IO#timeout (CRuby 3.1 has none: mnrb-only here)
  def test_a_read_outlasting_io_timeout_raises_io_timeout_error
    mnrb_only
    r, w = IO.pipe
    r.timeout = 0.02
    assert_equal 0.02, r.timeout
    e = assert_raise(IO::TimeoutError) { r.read(1) }
    assert_kind_of IOError, e
    assert_raise(TypeError) { r.timeout = "1" }
    r.close
    w.close
  end
end

class IODeadlockTest < MnTest::Case
  # A thread waiting on I/O can be woken from outside (another process, a signal): joining it is not
  # a deadlock, even when every other thread waits too (CRuby counts such waits the same way).
  def test_joining_a_thread_blocked_on_io_is_not_reported_as_a_deadlock
    r, w = IO.pipe
    reader = Thread.new { r.read(3) }
    q = Queue.new
    writer = Thread.new { q.pop; w.write "abc" }
    wait_until("the reader to block") { reader.status == "sleep" }
    Thread.new { sleep 0.01; q << :go }
    assert_equal "abc", reader.value
    writer.join
    r.close
    w.close
  end
end
