# StringIO (CRuby's stringio library): reading and writing a String as an IO.

class StringIOTest < MnTest::Case
  def setup
    require "stringio"
  end

  def test_read_all_and_by_length
    io = StringIO.new("hello world")
    assert_equal "hello", io.read(5)
    assert_equal " world", io.read
    assert_equal "", io.read
    assert_nil io.read(1)
    assert io.eof?
  end

  def test_gets_and_lineno
    io = StringIO.new("a\nb\nc")
    assert_equal "a\n", io.gets
    assert_equal "b", io.gets(chomp: true)
    assert_equal "c", io.gets
    assert_nil io.gets
    assert_equal 3, io.lineno
  end

  def test_each_line_and_readlines
    assert_equal ["x\n", "y\n"], StringIO.new("x\ny\n").readlines
    lines = []
    StringIO.new("1\n2").each_line { |l| lines << l }
    assert_equal ["1\n", "2"], lines
  end

  def test_write_puts_print_and_shovel
    io = StringIO.new
    io.write("a")
    io.puts("b", 1)
    io.print("c", "d")
    io << "e"
    assert_equal "ab\n1\ncde", io.string
  end

  def test_write_overwrites_at_the_position
    io = StringIO.new(String.new("abcdef"))
    io.seek(2)
    io.write("XY")
    assert_equal "abXYef", io.string
    assert_equal 4, io.pos
  end

  def test_rewind_and_pos
    io = StringIO.new("abc")
    io.read
    assert_equal 3, io.pos
    io.rewind
    assert_equal 0, io.pos
    assert_equal "a", io.getc
  end

  def test_closed_stream_raises_io_error
    io = StringIO.new("abc")
    io.close
    assert io.closed?
    assert_raise(IOError) { io.read }
    assert_raise(IOError) { io.write("x") }
  end

  def test_readline_at_eof_raises_eof_error
    assert_raise(EOFError) { StringIO.new("").readline }
  end

  # CRuby's set_encoding: reads answer in the encoding, an unfrozen String takes it (Rack's
  # MockRequest sets rack.input's to BINARY); read(n) gives bytes
  def test_set_encoding_and_binmode
    s = +"\u00e9"
    io = StringIO.new(s)
    assert_same io, io.set_encoding(Encoding::BINARY)
    assert_equal [Encoding::BINARY, Encoding::BINARY, nil], [io.external_encoding, s.encoding, io.internal_encoding]
    f = "\u00e9".freeze
    io = StringIO.new(f)
    io.set_encoding("BINARY")
    assert_equal [Encoding::BINARY, Encoding::UTF_8], [io.external_encoding, f.encoding]
    s = +"\u00e9"
    io = StringIO.new(s)
    assert_equal Encoding::UTF_8, io.external_encoding
    assert_same io, io.binmode
    assert_equal [Encoding::BINARY, Encoding::BINARY], [io.external_encoding, s.encoding]
  end

  def test_read_with_a_length_gives_bytes
    io = StringIO.new(+"abc")
    assert_equal [Encoding::BINARY, Encoding::UTF_8], [io.read(2).encoding, io.read.encoding]
  end
end
