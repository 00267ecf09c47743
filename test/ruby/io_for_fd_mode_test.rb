# IO.new(fd) / IO.for_fd(fd) without a mode take the descriptor's access mode (CRuby's
# rb_io_initialize reads fcntl F_GETFL); a mode the descriptor was not opened for is EINVAL.

class IOForFdModeTest < MnTest::Case
  def setup
    @path = "/tmp/mnrb-io-for-fd-#{Process.pid}.txt"
    File.write(@path, "")
  end

  def teardown
    File.unlink(@path) if File.exist?(@path)
  end

  def test_pipe_writer_is_writable_without_a_mode
    r, w = IO.pipe
    io = IO.for_fd(w.fileno, autoclose: false)
    io.write("x")
    io.flush
    assert_equal "x", r.read_nonblock(10)
    assert_raise(IOError) { io.read(1) }
  ensure
    [r, w].each(&:close)
  end

  def test_pipe_reader_is_read_only_without_a_mode
    r, w = IO.pipe
    io = IO.new(r.fileno, autoclose: false)
    e = assert_raise(IOError) { io.write("a") }
    assert_equal "not opened for writing", e.message
  ensure
    [r, w].each(&:close)
  end

  def test_read_write_file_is_both
    File.open(@path, "w+") do |f|
      io = IO.new(f.fileno, autoclose: false)
      io.write("hey")
      io.flush
      io.rewind
      assert_equal "hey", io.read
    end
  end

  def test_append_descriptor_appends
    File.write(@path, "hey")
    File.open(@path, "a") do |f|
      io = IO.new(f.fileno, autoclose: false)
      assert_raise(IOError) { io.read }
      io.write("Z")
      io.flush
    end
    assert_equal "heyZ", File.read(@path)
  end

  def test_mode_the_descriptor_lacks_is_einval
    File.open(@path, "r") do |f|
      assert_raise(Errno::EINVAL) { IO.new(f.fileno, "w", autoclose: false) }
      assert_raise(Errno::EINVAL) { IO.new(f.fileno, mode: "r+", autoclose: false) }
      assert_equal false, IO.new(f.fileno, mode: "r", autoclose: false).autoclose?
    end
  end

  def test_autoclose_keyword_leaves_the_descriptor_open
    r, w = IO.pipe
    io = IO.for_fd(w.fileno, autoclose: false)
    io.close
    w.write("still")
    w.close
    assert_equal "still", r.read
  ensure
    r.close
  end
end
