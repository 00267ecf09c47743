# A readable IO's read buffer is made at its first read, not when the IO is made (mruby patch
# 0106: every ractor's STDIN had a 4 KiB buffer it never used). The first operation on a fresh IO
# may be any of those that use the buffer: each must work as CRuby's (the file passes on CRuby).

require "tmpdir"

class IoLazyBufferTest < MnTest::Case
  def with_file(content)
    Dir.mktmpdir do |dir|
      path = File.join(dir, "f")
      File.write(path, content)
      yield path
    end
  end

  def test_ungetc_first_on_a_pipe
    r, w = IO.pipe
    r.ungetc("ab")
    w.write("cd")
    w.close
    assert_equal "abcd", r.read
  ensure
    r&.close
  end

  def test_seek_and_pos_first_on_a_file
    with_file("0123456789") do |path|
      File.open(path) do |f|
        assert_equal 0, f.pos
        f.seek(4)
        assert_equal 4, f.pos
        assert_equal "45", f.read(2)
        assert_equal 6, f.pos
      end
    end
  end

  def test_eof_first_on_a_file
    with_file("x") do |path|
      File.open(path) do |f|
        refute f.eof?
        assert_equal "x", f.read
        assert f.eof?
      end
    end
    with_file("") { |path| File.open(path) { |f| assert f.eof? } }
  end

  def test_rewind_first_then_gets
    with_file("a\nb\n") do |path|
      File.open(path) do |f|
        f.rewind
        assert_equal "a\n", f.gets
        f.rewind
        assert_equal ["a\n", "b\n"], f.readlines
      end
    end
  end

  def test_select_first_on_a_pipe
    r, w = IO.pipe
    assert_nil IO.select([r], nil, nil, 0)
    w.write("z")
    assert_equal [r], IO.select([r], nil, nil, 5)[0]
    assert_equal "z", r.readpartial(10)
  ensure
    r&.close
    w&.close
  end

  def test_dup_of_a_fresh_io_reads
    r, w = IO.pipe
    d = r.dup
    w.write("dup")
    w.close
    assert_equal "dup", d.read
  ensure
    r&.close
    d&.close
  end

  def test_stdin_read_in_a_ractor
    src = 'r = Ractor.new { $stdin.read }; print r.take'   # CRuby: STDIN is main's only
    out = IO.popen([RbConfig.ruby, "-e", src], "r+", err: File::NULL) do |io|
      io.write("from stdin")
      io.close_write
      io.read
    end
    assert_equal "from stdin", out
  end

  def test_sysread_first_on_a_pipe
    r, w = IO.pipe
    w.write("sys")
    assert_equal "sys", r.sysread(3)
  ensure
    r&.close
    w&.close
  end
end
