# $_ after reading lines: StringIO#gets and #readline set it (nil at the end), each_line and
# readlines leave it alone, and Kernel#gets reads $stdin when ARGV is empty, a StringIO too
# (CRuby's ARGF). $_ belongs to the method frame that read the line, as CRuby's: a method's gets
# leaves its caller's $_ alone, a block shares its method's, and each thread has its own.

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

  def read_one(io)
    io.gets
    $_
  end

  def test_a_method_s_gets_leaves_its_caller_s_line_alone
    $_ = "mine"
    assert_equal "inner\n", read_one(StringIO.new("inner\n"))
    assert_equal "mine", $_
    r, w = IO.pipe
    w.write("piped\n")
    w.close
    assert_equal "piped\n", read_one(r)
    r.close
    assert_equal "mine", $_
  end

  def test_a_new_method_frame_starts_with_no_line
    $_ = "outer"
    assert_nil(proc_free_reader)
  end

  def proc_free_reader = $_

  def test_a_block_shares_its_method_s_line_and_a_thread_has_its_own
    io = StringIO.new("x\ny\n")
    [1].each { io.gets }
    assert_equal "x\n", $_
    assert_equal [nil, "y\n"], Thread.new { [$_, (io.gets; $_)] }.value
    assert_equal "x\n", $_
  end

  def test_print_without_arguments_prints_the_caller_s_line
    saved = $stdout
    $stdout = out = StringIO.new
    $_ = "line to print\n"
    print
    $stdout = saved
    assert_equal "line to print\n", out.string
  ensure
    $stdout = saved
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
