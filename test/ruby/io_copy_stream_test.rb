# IO.write/binwrite (offset, mode:, perm:), IO.copy_stream between paths, files, pipes and objects
# that read or write, IO.try_convert, IO#to_io, #putc, #each_codepoint. Expected values are CRuby
# 3.1's (this file passes there too).
require "tmpdir"

class IOCopyStreamTest < MnTest::Case
  class Sink
    attr_reader :data
    def initialize = @data = +""
    def write(s)
      @data << s
      s.bytesize
    end
  end

  class Source
    def initialize(s) = @s = s
    def read(n, buf = nil)
      return nil if @s.empty?
      r = @s[0, n]
      @s = @s[r.size..-1] || ""
      buf ? buf.replace(r) : r   # CRuby passes a buffer to fill
    end
  end

  def with_dir
    Dir.mktmpdir { |dir| yield dir }
  end

  def test_io_write
    with_dir do |dir|
      path = File.join(dir, "w")
      assert_equal 5, IO.write(path, "hello", perm: 0o600)
      assert_equal 0o600, File.stat(path).mode & 0o777
      assert_equal 2, IO.write(path, "XY", 1)
      assert_equal "hXYlo", File.read(path)
      assert_equal 2, IO.write(path, "ab", mode: "a")
      assert_equal "hXYloab", File.read(path)
      assert_equal 1, IO.binwrite(path, "Z", 0)
      assert_equal "ZXYloab", File.read(path)
      assert_equal 3, IO.write(path, 123)
      assert_equal "123", File.read(path)
      assert_equal 1, File.write(path, "q", 5)
      assert_equal "123\0\0q", File.read(path)
      other = File.join(dir, "new")
      assert_equal 1, IO.write(other, "x", 2)
      assert_equal "\0\0x", File.read(other)
      e = assert_raise(Errno::ENOENT) { IO.write(File.join(dir, "no", "x"), "a") }
      assert_include e.message, File.join(dir, "no", "x")
      assert_raise(TypeError) { IO.write(nil, "a") }
    end
  end

  def test_copy_stream_between_paths_and_files
    with_dir do |dir|
      src = File.join(dir, "src")
      dst = File.join(dir, "dst")
      File.write(src, "0123456789")
      assert_equal 10, IO.copy_stream(src, dst)
      assert_equal "0123456789", File.read(dst)
      assert_equal 3, IO.copy_stream(src, dst, 3, 2)
      assert_equal "234", File.read(dst)
      File.open(src) do |f|
        f.read(1)
        # with src_offset the file's position does not move
        assert_equal 8, IO.copy_stream(f, dst, nil, 2)
        assert_equal 1, f.pos
        assert_equal 4, IO.copy_stream(f, dst, 4)
        assert_equal "1234", File.read(dst)
        assert_equal 5, f.pos
      end
      File.open(dst, "w") do |out|
        assert_equal 10, IO.copy_stream(src, out)
        assert_equal 0, IO.copy_stream(src, out, 0)
      end
      assert_equal "0123456789", File.read(dst)
      e = assert_raise(Errno::ENOENT) { IO.copy_stream(File.join(dir, "missing"), dst) }
      assert_include e.message, "missing"
      assert_raise(TypeError) { IO.copy_stream(src, dst, "x") }
    end
  end

  def test_copy_stream_with_pipes_and_objects
    with_dir do |dir|
      dst = File.join(dir, "dst")
      r, w = IO.pipe
      writer = Thread.new do
        w << "abc" << "def"
        w.close
      end
      assert_equal 3, IO.copy_stream(r, dst, 3)
      assert_equal "abc", File.read(dst)
      writer.join
      sink = Sink.new
      assert_equal 3, IO.copy_stream(r, sink)
      assert_equal "def", sink.data
      r.close
      assert_equal 5, IO.copy_stream(Source.new("hello"), dst)
      assert_equal "hello", File.read(dst)
      r, w = IO.pipe
      assert_equal 5, IO.copy_stream(dst, w)
      w.close
      assert_equal "hello", r.read
      r.close
    end
  end

  def test_copy_stream_waits_without_stopping_other_threads
    r, w = IO.pipe
    sink = Sink.new
    copier = Thread.new { IO.copy_stream(r, sink) }
    # the copier waits on the empty pipe; this thread keeps running and feeds it
    10.times { |i| w.write("#{i}") }
    w.close
    assert_equal 10, copier.value
    assert_equal "0123456789", sink.data
    r.close
  end

  def test_try_convert_and_to_io
    assert_same $stdin, IO.try_convert($stdin)
    assert_nil IO.try_convert(1)
    assert_nil IO.try_convert("x")
    wrapper = Object.new
    def wrapper.to_io = $stdout
    assert_same $stdout, IO.try_convert(wrapper)
    bad = Object.new
    def bad.to_io = 1
    e = assert_raise(TypeError) { IO.try_convert(bad) }
    assert_equal "can't convert Object to IO (Object#to_io gives Integer)", e.message
    assert_same $stdout, $stdout.to_io
  end

  def test_putc_and_each_codepoint
    r, w = IO.pipe
    assert_equal "ab", w.putc("ab")
    assert_equal 65, w.putc(65)
    assert_equal 322, w.putc(256 + 66)
    assert_equal "é!", w.putc("é!")
    w.close
    assert_equal "aABé", r.read
    r.close
    r, w = IO.pipe
    w << "aé€"
    w.close
    assert_equal [97, 233, 8364], r.each_codepoint.to_a
    r.close
    r, w = IO.pipe
    w << "xy"
    w.close
    got = []
    assert_same r, r.each_codepoint { |c| got << c }
    assert_equal [120, 121], got
  end
end
