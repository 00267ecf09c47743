# Reading (CRuby 3.1 semantics, checked with `test/run-ruby-tests.sh ruby`): IO#read, readpartial,
# read_nonblock, sysread, gets and its arguments, readline(s), each_line, getc, getbyte, eof?,
# ungetc and ungetbyte, on pipes and on files. mnrb reads through its own layer over mruby-io's
# 4 KiB read buffer (mrbgems/mnrb-io/src/read.c, lines.c).

class IOReadTest < MnTest::Case
  def setup
    @path = "/tmp/mnrb-io-read-test-#{Process.pid}-#{rand(1_000_000)}"
    @ios = []
  end

  def teardown
    @ios.each { |io| io.close unless io.closed? }
    File.delete(@path) if File.exist?(@path)
  end

  # A pipe whose writer wrote `data` (less than a pipe holds) and closed, and a file holding `data`:
  # the block runs for each, and each expectation must hold for both.
  def each_source(data)
    r, w = IO.pipe
    w.write(data)
    w.close
    File.open(@path, "w") { |f| f.write(data) }
    f = File.open(@path)
    @ios << r << f
    [["pipe", r], ["file", f]].each { |kind, io| yield io, kind }
  end

  def check(kind, exp, act)
    assert_equal exp, act, "#{kind}: expected #{exp.inspect}, got #{act.inspect}"
  end

  def open_pipe
    r, w = IO.pipe
    @ios << r << w
    [r, w]
  end

  def sleeping(t)
    wait_until("the reader to wait") { t.status == "sleep" }
  end

  # ---- read ----

  def test_read_without_length_reads_to_the_end_then_gives_an_empty_string
    each_source("abc\ndef") do |io, kind|
      check kind, "abc\ndef", io.read
      check kind, "", io.read
      check kind, "", io.read(nil)
    end
  end

  def test_read_with_length_gives_up_to_length_bytes_then_nil_at_eof
    each_source("abcde") do |io, kind|
      check kind, "ab", io.read(2)
      check kind, "cde", io.read(10)
      check kind, nil, io.read(1)
    end
  end

  def test_read_zero_gives_an_empty_string_even_at_eof
    each_source("a") do |io, kind|
      check kind, "", io.read(0)
      io.read
      check kind, "", io.read(0)
    end
  end

  def test_read_into_outbuf_replaces_its_bytes_and_empties_it_at_eof
    each_source("abc") do |io, kind|
      buf = "xyz123"
      assert_same buf, io.read(2, buf)
      check kind, "ab", buf
      io.read(5, buf)
      check kind, "c", buf
      check kind, nil, io.read(5, buf)
      check kind, "", buf
    end
  end

  def test_read_everything_into_outbuf
    each_source("abc") do |io, kind|
      buf = "old"
      assert_same buf, io.read(nil, buf)
      check kind, "abc", buf
      check kind, "", io.read(nil, buf)
      check kind, "", buf
    end
  end

  def test_read_argument_errors
    r, = open_pipe
    assert_equal "negative length -1 given", assert_raise(ArgumentError) { r.read(-1) }.message
    e = assert_raise(TypeError) { r.read(1, 5) }
    assert_equal "no implicit conversion of Integer into String", e.message
    assert_raise(FrozenError) { r.read(1, "x".freeze) }
  end

  def test_read_of_more_than_the_buffer_holds_returns_every_byte
    data = (0...30_000).map { |i| (97 + i % 26).chr }.join
    File.open(@path, "w") { |f| f.write(data) }
    File.open(@path) do |f|
      assert_equal data[0, 5000], f.read(5000)
      assert_equal data[5000, 3], f.gets(nil, 3)
      assert_equal data[5003..-1], f.read
    end
  end

  def test_read_with_length_waits_until_every_byte_came
    r, w = open_pipe
    reader = Thread.new { r.read(6) }
    w.write "abc"
    sleeping(reader)
    w.write "defg"
    assert_equal "abcdef", reader.value
    assert_equal "g", r.read_nonblock(10)
  end

  # ---- readpartial, read_nonblock, sysread ----

  def test_readpartial_returns_buffered_bytes_without_waiting_for_more
    r, w = open_pipe
    w.write "abc\ndef"
    assert_equal "abc\n", r.gets
    assert_equal "de", r.readpartial(2)
    assert_equal "f", r.readpartial(100)
  end

  def test_readpartial_raises_eof_error_and_empties_outbuf_at_eof
    each_source("ab") do |io, kind|
      buf = "12345"
      check kind, "ab", io.readpartial(10, buf)
      assert_raise(EOFError) { io.readpartial(10, buf) }
      check kind, "", buf
      check kind, "", io.readpartial(0)
    end
  end

  def test_read_nonblock_without_exceptions_returns_wait_readable_then_nil_at_eof
    r, w = open_pipe
    assert_equal :wait_readable, r.read_nonblock(5, exception: false)
    assert_raise(IO::EAGAINWaitReadable) { r.read_nonblock(5) }
    w.write "xyz"
    assert_equal "xy", r.read_nonblock(2)
    assert_equal "z", r.read_nonblock(2)
    w.close
    assert_nil r.read_nonblock(5, exception: false)
    assert_raise(EOFError) { r.read_nonblock(5) }
  end

  def test_sysread_with_bytes_read_ahead_raises_ioerror
    each_source("abc") do |io, kind|
      io.getc
      e = assert_raise(IOError) { io.sysread(1) }
      check kind, "sysread for buffered IO", e.message
    end
  end

  def test_sysread_reads_what_is_there_then_raises_eof_error
    each_source("abc") do |io, kind|
      check kind, "", io.sysread(0)
      check kind, "ab", io.sysread(2)
      buf = "zzzzz"
      check kind, "c", io.sysread(5, buf)
      check kind, "c", buf
      assert_raise(EOFError) { io.sysread(5, buf) }
    end
    r, = open_pipe
    e = assert_raise(ArgumentError) { r.sysread(-1) }
    assert_equal "negative string size (or size too big)", e.message
  end

  # ---- gets ----

  def test_gets_returns_each_line_with_its_newline_then_nil
    each_source("a\nbc\n\nd") do |io, kind|
      check kind, ["a\n", "bc\n", "\n", "d", nil], Array.new(5) { io.gets }
    end
  end

  def test_gets_with_a_separator_returns_up_to_and_including_it
    each_source("abXYcdXYef") do |io, kind|
      check kind, ["abXY", "cdXY", "ef", nil], Array.new(4) { io.gets("XY") }
    end
  end

  def test_gets_with_a_limit_returns_at_most_that_many_bytes
    each_source("abcdef\nxyz") do |io, kind|
      check kind, ["ab", "cdef\n", "xyz", nil], [io.gets(2), io.gets(10), io.gets(3), io.gets(3)]
    end
  end

  def test_gets_with_a_separator_and_a_limit_stops_at_the_first
    each_source("abcXYd\nab\ncd") do |io, kind|
      check kind, ["abcX", "Yd\n", "ab\n", "cd"],
            [io.gets("XY", 4), io.gets("\n", 10), io.gets("\n", 3), io.gets(nil, 3)]
    end
  end

  def test_gets_with_a_limit_does_not_split_a_utf8_character
    each_source("aあいう\n") do |io, kind|
      check kind, ["aあ", "いう", "\n"], [io.gets(2), io.gets(4), io.gets]
    end
  end

  def test_gets_with_limit_zero_returns_an_empty_string_and_a_negative_one_no_limit
    each_source("ab\ncd") do |io, kind|
      check kind, ["", "ab\n", "", "cd"], [io.gets(0), io.gets(-1), io.gets("x", 0), io.gets(nil, -1)]
      check kind, "", io.gets(0)
    end
  end

  def test_gets_nil_reads_everything_then_nil
    each_source("a\nb\n") do |io, kind|
      check kind, ["a\nb\n", nil], [io.gets(nil), io.gets(nil)]
    end
  end

  def test_gets_empty_separator_reads_paragraphs
    each_source("\n\n\na\nb\n\n\n\nc\n\n") do |io, kind|
      check kind, ["a\nb\n\n", "c\n\n", nil], Array.new(3) { io.gets("") }
    end
    each_source("\n\nab\n\ncd") do |io, kind|
      check kind, ["ab", "cd", nil], Array.new(3) { io.gets("", 2) }
    end
  end

  def test_gets_chomp_removes_the_separator
    each_source("a\nb\r\nc\r") do |io, kind|
      check kind, ["a", "b", "c\r", nil], Array.new(4) { io.gets(chomp: true) }
    end
    each_source("abXYcd") do |io, kind|
      check kind, ["ab", "cd"], Array.new(2) { io.gets("XY", chomp: true) }
    end
    each_source("\n\na\nb\n\n\nc\n") do |io, kind|
      check kind, ["a\nb", "c\n"], Array.new(2) { io.gets("", chomp: true) }
    end
    each_source("ab\ncd\n") do |io, kind|
      check kind, ["ab", "cd", ""], [io.gets(3, chomp: true), io.gets(2, chomp: true), io.gets(1, chomp: true)]
    end
  end

  def test_gets_nil_with_chomp_removes_one_final_newline_unless_limited
    each_source("abc\n\n") do |io, kind|
      check kind, "abc\n", io.gets(nil, chomp: true)
    end
    each_source("ab\ncd\n") do |io, kind|
      check kind, ["ab\n", "cd\n"], Array.new(2) { io.gets(nil, 3, chomp: true) }
    end
  end

  def test_gets_arguments_convert_as_in_cruby
    each_source("abcdef") do |io, kind|
      sep = Object.new
      def sep.to_str; "c"; end
      check kind, ["a", "bc"], [io.gets(1.9), io.gets(sep)]
    end
    r, = open_pipe
    e = assert_raise(TypeError) { r.gets(:x) }
    assert_equal "no implicit conversion of Symbol into Integer", e.message
    e = assert_raise(TypeError) { r.gets("a", "b") }
    assert_equal "no implicit conversion of String into Integer", e.message
  end

  def test_gets_waits_for_a_separator_split_across_two_writes
    r, w = open_pipe
    reader = Thread.new { [r.gets("XYZ"), r.gets("\r\n", chomp: true)] }
    w.write "abcX"
    sleeping(reader)
    w.write "Y"
    sleeping(reader)
    w.write "Zrest\r"
    sleeping(reader)
    w.write "\nmore"
    assert_equal ["abcXYZ", "rest"], reader.value
    assert_equal "more", r.read_nonblock(10)
  end

  def test_gets_returns_a_line_written_in_pieces_once_its_newline_came
    r, w = open_pipe
    reader = Thread.new { r.gets }
    w.write "abc"
    sleeping(reader)
    w.write "def\nghi"
    assert_equal "abcdef\n", reader.value
    w.close
    assert_equal "ghi", r.gets
  end

  def test_gets_returns_lines_longer_than_the_buffer_whole
    long = "x" * 10_000 + "\n"
    each_source(long + "y" * 5000 + "\n" + long) do |io, kind|
      check kind, [long, "y" * 5000 + "\n", long, nil], Array.new(4) { io.gets }
    end
  end

  def test_paragraph_mode_waits_to_see_where_the_blank_lines_end
    r, w = open_pipe
    reader = Thread.new { r.gets("") }
    w.write "a\n\n"
    sleeping(reader)
    assert reader.alive?, "the blank lines might go on"
    w.write "\n\nb"
    assert_equal "a\n\n", reader.value
    w.close
    assert_equal "b", r.gets("")
  end

  # ---- readline, readlines, each_line ----

  def test_readline_takes_gets_arguments_and_raises_eof_error_at_the_end
    each_source("a\nbXc") do |io, kind|
      check kind, ["a\n", "b", "c"], [io.readline, io.readline("X", chomp: true), io.readline(5)]
      assert_raise(EOFError) { io.readline }
    end
  end

  def test_readlines_takes_gets_arguments
    each_source("a\nbXc\n") do |io, kind|
      check kind, ["a\nbX", "c\n"], io.readlines("X")
    end
    each_source("a\nb\nc") do |io, kind|
      check kind, ["a", "b", "c"], io.readlines(chomp: true)
    end
    each_source("ab\nc") do |io, kind|
      check kind, ["a", "b", "\n", "c"], io.readlines(1)
    end
  end

  def test_readlines_and_each_line_reject_limit_zero
    r, = open_pipe
    assert_equal "invalid limit: 0 for readlines", assert_raise(ArgumentError) { r.readlines(0) }.message
    assert_equal "invalid limit: 0 for each_line", assert_raise(ArgumentError) { r.each_line(0) {} }.message
  end

  def test_each_line_takes_gets_arguments_and_returns_self
    each_source("a\nb\nc") do |io, kind|
      lines = []
      assert_same io, io.each_line("b", chomp: true) { |l| lines << l }
      check kind, ["a\n", "\nc"], lines
    end
    each_source("a\nb") do |io, kind|
      check kind, ["a", "b"], io.each_line(chomp: true).to_a
    end
  end

  # ---- characters and bytes ----

  def test_getc_returns_utf8_characters_then_nil
    each_source("aあ\n") do |io, kind|
      check kind, ["a", "あ", "\n", nil], Array.new(4) { io.getc }
    end
  end

  def test_getc_returns_an_invalid_byte_alone_and_a_cut_character_at_eof_whole
    each_source("\xE3\x81x\xFF\xE3\x81") do |io, kind|
      check kind, ["\xE3", "\x81", "x", "\xFF", "\xE3\x81", nil], Array.new(6) { io.getc }
    end
  end

  def test_getbyte_readbyte_and_readchar
    each_source("ab") do |io, kind|
      check kind, [97, "b"], [io.getbyte, io.readchar]
      check kind, nil, io.getbyte
      assert_raise(EOFError) { io.readbyte }
      assert_raise(EOFError) { io.readchar }
    end
  end

  def test_eof_is_false_with_data_left_and_true_at_the_end
    each_source("ab") do |io, kind|
      check kind, [false, false], [io.eof?, io.eof]
      io.read
      check kind, [true, true], [io.eof?, io.eof]
    end
  end

  def test_eof_waits_for_data_on_a_pipe
    r, w = open_pipe
    t = Thread.new { r.eof? }
    sleeping(t)
    w.write "x"
    assert_equal false, t.value
    w.close
    assert_equal "x", r.read
    assert_equal true, r.eof?
  end

  def test_ungetc_pushes_back_strings_and_codepoints
    each_source("ab") do |io, kind|
      assert_nil io.ungetc("XY")
      check kind, "XYab", io.read
      io.ungetc(0x3042)
      io.ungetc("Z")
      check kind, "Zあ", io.read
    end
    r, = open_pipe
    e = assert_raise(TypeError) { r.ungetc(nil) }
    assert_equal "no implicit conversion of nil into String", e.message
  end

  def test_ungetbyte_pushes_back_bytes
    each_source("ab") do |io, kind|
      io.ungetbyte(0x41)
      io.ungetbyte("BC")
      assert_nil io.ungetbyte(nil)
      io.ungetbyte(0x1ff)
      check kind, "\xFFBCAab", io.read
    end
  end

  def test_a_line_longer_than_what_ungetc_pushed_reads_through
    each_source("cd\nrest") do |io, kind|
      io.ungetc("a" * 5000 + "b")
      check kind, "a" * 5000 + "bcd\n", io.gets
      check kind, "rest", io.gets
    end
  end

  def test_reading_a_write_only_or_closed_io_raises_ioerror
    r, w = open_pipe
    %i[read gets getc getbyte eof? readlines].each do |m|
      assert_equal "not opened for reading", assert_raise(IOError) { w.__send__(m) }.message
    end
    assert_equal "not opened for reading", assert_raise(IOError) { w.ungetc("x") }.message
    r.close
    assert_equal "closed stream", assert_raise(IOError) { r.gets }.message
  end

  # ---- files: the reader's position, not the read-ahead ----

  def test_pos_counts_what_was_read_not_what_was_read_ahead
    File.open(@path, "w") { |f| f.write("0123456789\nabc\n") }
    File.open(@path) do |f|
      f.gets
      assert_equal 11, f.pos
      f.getc
      f.ungetc("zz")
      assert_equal 10, f.pos
      f.seek(0)
      assert_equal "01", f.read(2)
    end
  end

  def test_a_write_after_a_read_goes_where_the_reader_is
    File.open(@path, "w") { |f| f.write("0123456789\nabc\n") }
    File.open(@path, "r+") do |f|
      f.gets
      f.write("XY")
      assert_equal 13, f.pos
      assert_equal "c\n", f.read
    end
    assert_equal "0123456789\nXYc\n", File.read(@path)
  end
end
