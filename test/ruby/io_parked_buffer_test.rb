# Memory safety of reads and writes that park (issue 18): while a thread waits in the middle of a
# read or a write, other threads run and may change the Strings and the IO it works on. mnrb reads
# into private memory and writes from snapshots (mrbgems/mnrb-io/src/read.c, write.c); these run
# under ASan in `make test`. Expectations hold on CRuby 3.1 too, unless marked mnrb-only.

class IOParkedBufferTest < MnTest::Case
  def setup
    @r, @w = IO.pipe
  end

  def teardown
    @r.close unless @r.closed?
    @w.close unless @w.closed?
  end

  def parked(t)
    wait_until("the thread to wait") { t.status == "sleep" }
  end

  # Changes a String that a parked read will fill. CRuby refuses ("can't modify string; temporarily
  # locked"); mnrb lets it, and the read's result replaces what it did when the read returns.
  def meddle(buf)
    yield buf
  rescue RuntimeError => e
    assert_include e.message, "temporarily locked"
  end

  # Fills the pipe so that the next write parks.
  def fill_pipe
    filled = 0
    loop do
      n = @w.write_nonblock("f" * 65_536, exception: false)
      return filled if n == :wait_writable
      filled += n
    end
  end

  # Everything in the pipe once the writer is done (it needs the reader to drain the pipe).
  def read_all_after(writer)
    reader = Thread.new { @r.read }
    writer.join
    @w.close
    reader.value
  end

  def test_sysread_into_a_buffer_replaced_while_parked_gets_the_bytes_read
    buf = "x" * 10
    reader = Thread.new { @r.sysread(5, buf) }
    parked(reader)
    meddle(buf) { |b| b.replace("B" * 100_000) }
    @w.write "hello"
    assert_same buf, reader.value
    assert_equal "hello", buf
  end

  def test_read_into_a_buffer_cleared_while_parked_gets_the_bytes_read
    buf = "x" * 100_000
    reader = Thread.new { @r.read(5, buf) }
    parked(reader)
    meddle(buf, &:clear)
    @w.write "world"
    assert_same buf, reader.value
    assert_equal "world", buf
  end

  def test_readpartial_into_a_buffer_shrunk_while_parked
    buf = "x" * 100_000
    reader = Thread.new { @r.readpartial(100_000, buf) }
    parked(reader)
    meddle(buf) { |b| b.replace("zz") }
    @w.write "12345"
    assert_equal "12345", reader.value
    assert_equal "12345", buf
  end

  def test_a_string_replaced_while_its_write_is_parked_is_written_as_it_was
    filled = fill_pipe
    s = "A" * 200_000
    writer = Thread.new { @w.write(s) }
    parked(writer)
    s.replace("B")
    data = read_all_after(writer)
    assert_equal 200_000, writer.value
    assert data == "f" * filled + "A" * 200_000, "the bytes written are not the string's at the call"
  end

  def test_a_string_cleared_while_its_write_is_parked_is_written_as_it_was
    filled = fill_pipe
    s = "C" * 150_000
    writer = Thread.new { @w.write(s, "D" * 10) }
    parked(writer)
    s.clear
    s << "E" * 300_000
    data = read_all_after(writer)
    assert_equal 150_010, writer.value
    assert data == "f" * filled + "C" * 150_000 + "D" * 10, "the bytes written are not the string's at the call"
  end

  # CRuby 3.1 has no read lock: there two readers split lines between them (checked).
  def test_two_threads_reading_lines_of_one_pipe_each_get_whole_lines_every_line_once
    mnrb_only
    lines = (0...200).map { |i| "line #{i} " + "x" * (i * 37 % 9000) + "\n" }
    readers = Array.new(2) { Thread.new { got = []; while (l = @r.gets); got << l; end; got } }
    lines.each do |l|
      off = 0
      while off < l.bytesize
        @w.write(l.byteslice(off, 3000))
        off += 3000
        Thread.pass
      end
    end
    @w.close
    got = readers.flat_map(&:value)
    assert_equal lines.size, got.size
    assert got.sort == lines.sort, "a line was split, lost or read twice"
  end

  def test_a_read_ended_by_thread_raise_leaves_only_real_data_behind
    reader = Thread.new do
      begin
        @r.gets
      rescue RuntimeError => e
        e.message
      end
    end
    parked(reader)
    reader.raise RuntimeError, "stop"
    assert_equal "stop", reader.value
    @w.write "line\nnext"
    assert_equal "line\n", @r.gets
    assert_equal "next", @r.read_nonblock(100)
    assert_equal :wait_readable, @r.read_nonblock(100, exception: false)
  end

  def test_a_read_ended_by_io_timeout_leaves_only_real_data_behind
    mnrb_only                   # IO#timeout is Ruby 3.2's
    @r.timeout = 0.05
    assert_raise(IO::TimeoutError) { @r.gets }
    @r.timeout = nil
    @w.write "ok\n"
    assert_equal "ok\n", @r.gets
    assert_equal :wait_readable, @r.read_nonblock(100, exception: false)
  end

  # Waiting for another reader's turn is part of the read: IO#timeout bounds it too.
  def test_io_timeout_bounds_the_wait_for_another_readers_turn
    mnrb_only                   # IO#timeout is Ruby 3.2's
    first = Thread.new { @r.gets }
    parked(first)
    @r.timeout = 0.05
    assert_raise(IO::TimeoutError) { @r.gets }
    @r.timeout = nil
    @w.write "x\n"
    assert_equal "x\n", first.value
  end

  def test_closing_an_io_whose_reader_is_parked_mid_line
    @w.write "partial"
    reader = Thread.new do
      begin
        @r.gets
      rescue IOError => e
        e.message
      end
    end
    parked(reader)
    @r.close
    assert_equal "stream closed in another thread", reader.value
  end

  # The buffer grows under the parked reader. CRuby 3.1 drops the bytes pushed back (checked);
  # mnrb's reader finds them in the buffer after its line's start.
  def test_ungetc_while_another_thread_is_parked_in_gets
    @w.write "ab"
    reader = Thread.new { @r.gets }
    parked(reader)
    @r.ungetc("XY" * 3000)
    @w.write "c\n"
    line = reader.value
    assert line.start_with?("ab") && line.end_with?("c\n"), line[0, 20].inspect
    assert_equal "ab" + "XY" * 3000 + "c\n", line if mnrb?
  end

  # In a forked child only the forking thread lives on: a read lock its parent's reader held is free.
  def test_a_forked_child_reads_an_io_whose_parent_had_a_reader_parked
    fork_allowed!
    reader = Thread.new { @r.gets }
    parked(reader)
    pid = fork do
      @r.ungetc("hi")
      exit!(@r.read_nonblock(2, exception: false) == "hi" ? 0 : 1)
    end
    Process.wait(pid)
    assert_equal 0, $?.exitstatus
    @w.write "\n"
    assert_equal "\n", reader.value
  end
end
