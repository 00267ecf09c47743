# IO#lineno and $.: counted by gets, readline, each_line and readlines as CRuby counts them; set by
# lineno=; IOError on a stream not open for reading. Expected values are CRuby 3.1's.
class IOLinenoTest < MnTest::Case
  def pipe_with(text)
    r, w = IO.pipe
    w << text
    w.close
    r
  end

  def test_counted_by_each_way_of_reading_lines
    r = pipe_with("a\nb\nc\nd\ne\nf\n")
    assert_equal 0, r.lineno
    r.gets
    assert_equal 1, r.lineno
    assert_equal 1, $.
    assert_equal 10, (r.lineno = 10)
    r.readline
    assert_equal 11, r.lineno
    assert_equal 11, $.
    r.each_line { break }
    assert_equal 12, r.lineno
    assert_equal ["d\n", "e\n", "f\n"], r.readlines
    assert_equal 15, r.lineno
    assert_equal 15, $.
    assert_nil r.gets
    assert_equal 15, r.lineno
    r.close
    assert_raise(IOError) { r.lineno }
  end

  def test_separate_per_io_and_not_for_writers
    a = pipe_with("1\n2\n")
    b = pipe_with("x\n")
    a.gets
    a.gets
    b.gets
    assert_equal [2, 1], [a.lineno, b.lineno]
    assert_equal 1, $.
    a.close
    b.close
    r, w = IO.pipe
    assert_raise(IOError) { w.lineno }
    assert_raise(TypeError) { r.lineno = "x" }
    r.close
    w.close
  end

  def test_paragraphs_and_limits_count_as_lines
    r = pipe_with("a\nb\n\n\nc\n")
    r.gets("")
    assert_equal 1, r.lineno
    r.gets(nil)
    assert_equal 2, r.lineno
    r.close
  end
end
