# $_ after reading lines: StringIO#gets and #readline set it (nil at the end), each_line and
# readlines leave it alone, and Kernel#gets reads $stdin when ARGV is empty, a StringIO too
# (CRuby's ARGF). (CRuby's $_ is local to a method frame; mnrb's is one per ractor, so each check
# reads it in the frame that read the line.)

class LastReadLineTest < MnTest::Case
  def setup
    require "stringio"
  end

  def test_stringio_gets_sets_it
    io = StringIO.new("a\nb\n")
    io.gets
    assert_equal "a\n", $_
    io.gets(chomp: true)
    assert_equal "b", $_
    assert_nil io.gets
    assert_nil $_
  end

  def test_stringio_readline_sets_it
    io = StringIO.new("q\nr\n")
    io.readline
    assert_equal "q\n", $_
  end

  def test_stringio_each_line_and_readlines_leave_it
    io = StringIO.new("q\nr\n")
    $_ = "kept"
    assert_equal ["q\n", "r\n"], io.each_line.to_a
    io.rewind
    assert_equal ["q\n", "r\n"], io.readlines
    assert_equal "kept", $_
  end

  def test_kernel_gets_reads_a_stringio_stdin
    saved = $stdin
    $stdin = StringIO.new("s1\ns2\n")
    gets
    assert_equal "s1\n", $_
    readline
    assert_equal "s2\n", $_
    assert_nil gets
    assert_nil $_
  ensure
    $stdin = saved
  end
end
