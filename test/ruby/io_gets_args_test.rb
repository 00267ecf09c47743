# IO#gets, each_line and readlines with CRuby's arguments (sep, limit, chomp:), on pipes where the
# data arrives in pieces (CRuby 3.1 semantics).

class IOGetsArgsTest < MnTest::Case
  def pipe_with(data)
    r, w = IO.pipe
    w.write data
    w.close
    r
  end

  def test_a_separator_split_across_two_writes_ends_the_line
    r, w = IO.pipe
    reader = Thread.new { [r.gets("\r\n"), r.gets("\r\n", chomp: true), r.gets("\r\n"), r.gets("\r\n")] }
    w.write "ab\r"
    Thread.pass until reader.status == "sleep" || !reader.alive?   # it has "ab\r" and waits
    w.write "\ncd\r\nef"
    w.close
    assert_equal ["ab\r\n", "cd", "ef", nil], reader.value
  end

  def test_a_multibyte_separator_split_across_writes_with_a_reader_waiting
    r, w = IO.pipe
    reader = Thread.new { [r.gets("END"), r.gets("END")] }
    ["abE", "N", "Dcd", "EN", "Dtail"].each do |part|
      Thread.pass until reader.status == "sleep" || !reader.alive?
      w.write part
    end
    w.close
    assert_equal ["abEND", "cdEND"], reader.value
    assert_equal "tail", r.read
  end

  def test_gets_nil_reads_to_the_end
    r = pipe_with("a\nb\n")
    assert_equal "a\nb\n", r.gets(nil)
    assert_nil r.gets(nil)
  end

  def test_chomp
    r = pipe_with("a\r\nb\nc")
    assert_equal ["a", "b", "c", nil], 4.times.map { r.gets(chomp: true) }
  end

  def test_paragraph_mode
    r = pipe_with("a\n\n\n\nb\nc\n\n")
    assert_equal ["a\n\n", "b\nc\n\n", nil], 3.times.map { r.gets("") }
  end

  def test_limits_complete_a_character
    r = pipe_with("héllo\nworld\n")
    assert_equal "hé", r.gets(2)
    assert_equal "ll", r.gets(2)
    assert_equal "o", r.gets("l", 1)
    assert_equal "\nwo", r.gets(nil, 3)
    assert_equal "rld\n", r.gets(nil)
    assert_equal "", r.gets(0)
    assert_nil r.gets(nil)
  end

  def test_each_line_with_a_limit
    lines = []
    pipe_with("abc\ndefgh\ni").each_line(2) { |l| lines << l }
    assert_equal ["ab", "c\n", "de", "fg", "h\n", "i"], lines
    e = assert_raise(ArgumentError) { pipe_with("x").each_line(0) {} }
    assert_equal "invalid limit: 0 for each_line", e.message
  end

  def test_readlines_with_separator_limit_and_chomp
    assert_equal ["ab", "c\n", "", "ef", "gh", "\ni"], pipe_with("abc\ndefgh\ni").readlines("d", 2, chomp: true)
    e = assert_raise(ArgumentError) { pipe_with("x").readlines(0) }
    assert_equal "invalid limit: 0 for readlines", e.message
  end

  def test_gets_sets_the_last_line
    r = pipe_with("one\ntwo\n")
    r.gets
    assert_equal "one\n", $_
    r.gets(chomp: true)
    assert_equal "two", $_
    r.gets
    assert_nil $_
  end
end
