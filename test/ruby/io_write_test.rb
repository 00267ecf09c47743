# Writing and closing (CRuby 3.1 semantics, checked with `test/run-ruby-tests.sh ruby`): IO#write,
# print, puts, <<, printf, syswrite, write_nonblock; close, close_read, close_write; IO.select and
# io/wait with bytes already read ahead. mnrb writes through mrbgems/mnrb-io/src/write.c.

class IOWriteTest < MnTest::Case
  def setup
    @r, @w = IO.pipe
  end

  def teardown
    @r.close unless @r.closed?
    @w.close unless @w.closed?
  end

  def written
    @w.close
    @r.read
  end

  def test_write_writes_each_objects_to_s_and_returns_the_byte_count
    assert_equal 6, @w.write("a", 1, nil, :b, [2])
    assert_equal 0, @w.write
    assert_equal 0, @w.write("")
    assert_equal "a1b[2]", written
  end

  def test_write_writes_everything_past_a_full_pipe
    data = "0123456789abcdef" * 20_000      # 320 KB: a pipe takes 64 KB at a time
    writer = Thread.new { @w.write(data) }
    got = @r.read(data.bytesize)
    assert_equal data.bytesize, writer.value
    assert got == data, "the bytes read differ from the bytes written"
  end

  def test_puts_writes_lines_flattening_arrays
    a = [1]
    a << a
    assert_nil @w.puts("p", ["q", ["r", nil]], nil, "s\n")
    @w.puts
    @w.puts([])
    @w.puts(a)
    assert_equal "p\nq\nr\n\n\ns\n\n1\n[...]\n", written
  end

  def test_print_printf_and_shift
    assert_nil @w.print("x", 1, nil)
    assert_nil @w.printf("%d-%s|", 2, "z")
    assert_same @w, @w << "m" << 5
    assert_equal "too few arguments", assert_raise(ArgumentError) { @w.printf }.message
    assert_equal "x12-z|m5", written
  end

  def test_an_object_whose_to_s_is_not_a_string_prints_as_any_object
    o = Object.new
    def o.to_s; 42; end
    @w.puts(o)
    @w.write(o)
    out = written
    assert out.start_with?("#<Object"), out.inspect
    assert_equal 2, out.split("#<Object").size - 1
  end

  def test_syswrite_and_write_nonblock_return_the_bytes_written
    assert_equal 1, @w.syswrite("S")
    assert_equal 2, @w.syswrite(12)
    assert_equal 1, @w.write_nonblock("N")
    assert_equal 0, @w.write_nonblock("")
    assert_equal "S12N", written
  end

  def test_write_nonblock_on_a_full_pipe
    chunk = "z" * 100_000
    assert_equal :wait_writable, loop { r = @w.write_nonblock(chunk, exception: false); break r if r.is_a?(Symbol) }
    e = assert_raise(IO::EAGAINWaitWritable) { @w.write_nonblock(chunk) }
    assert_equal "Resource temporarily unavailable - write would block", e.message
  end

  def test_writing_a_read_only_or_closed_io_raises_ioerror
    assert_equal "not opened for writing", assert_raise(IOError) { @r.write("x") }.message
    assert_equal "not opened for writing", assert_raise(IOError) { @r.puts("x") }.message
    @w.close
    assert_equal "closed stream", assert_raise(IOError) { @w.write("x") }.message
    assert_equal "closed stream", assert_raise(IOError) { @w.syswrite("x") }.message
  end

  # Each write holds the IO's write lock until its last byte is out. CRuby 3.1 gives no such
  # promise for lines longer than a pipe holds (checked: its threads' lines come out cut up).
  def test_lines_of_many_threads_do_not_interleave
    mnrb_only
    lines = (0...8).map { |i| "#{i}" * 20_000 }
    writers = lines.map { |l| Thread.new { @w.puts(l) } }
    reader = Thread.new { @r.read }
    writers.each(&:join)
    @w.close
    got = reader.value.split("\n")
    assert got.sort == lines.sort, "lines cut up: #{got.map(&:size).inspect}"
  end

  # ---- closing ----

  def test_close_twice_returns_nil
    assert_nil @w.close
    assert_nil @w.close
    assert @w.closed?
  end

  def test_close_write_and_close_read_of_the_wrong_side_raise
    assert_equal "closing non-duplex IO for writing", assert_raise(IOError) { @r.close_write }.message
    assert_equal "closing non-duplex IO for reading", assert_raise(IOError) { @w.close_read }.message
    refute @r.closed?
    refute @w.closed?
  end

  def test_close_read_and_close_write_of_the_only_side_close
    assert_nil @r.close_read
    assert @r.closed?
    assert_nil @r.close_read
    assert_nil @w.close_write
    assert @w.closed?
    assert_nil @w.close_write
  end

  def test_a_file_open_for_both_is_not_duplex
    path = "/tmp/mnrb-io-write-test-#{Process.pid}-#{rand(1_000_000)}"
    File.open(path, "w+") do |f|
      assert_equal "closing non-duplex IO for writing", assert_raise(IOError) { f.close_write }.message
      assert_equal "closing non-duplex IO for reading", assert_raise(IOError) { f.close_read }.message
      refute f.closed?
    end
  ensure
    File.delete(path) if File.exist?(path)
  end

  # ---- readiness with bytes read ahead ----

  def test_select_and_io_wait_count_bytes_read_ahead_as_readable
    require 'io/wait' unless IO.method_defined?(:nread)
    @w.write "abc"
    assert_equal "a", @r.getc               # "bc" now wait in the IO's buffer, not in the pipe
    assert_equal [[@r], [], []], IO.select([@r], nil, nil, 0)
    assert_equal 2, @r.nread
    assert @r.ready?
    assert @r.wait_readable(0)
    assert_equal "bc", @r.read_nonblock(10)
    assert_nil IO.select([@r], nil, nil, 0)
  end
end
