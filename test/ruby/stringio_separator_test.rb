# StringIO#gets, #each_line and #readlines take CRuby's arguments: the separator defaults to $/,
# then (sep), (limit), (sep, limit); nil reads the rest, "" reads a paragraph (the newlines after
# it skipped), a limit caps the bytes read. Expected values: CRuby 3.1 and 3.3.8.
require "stringio"

class StringioSeparatorTest < MnTest::Case
  def with_rs(rs)
    old = $/
    $/ = rs
    yield
  ensure
    $/ = old
  end

  def test_gets_default_separator_is_rs
    with_rs("x") do
      s = StringIO.new("axbxc")
      assert_equal ["ax", "bx", "c", nil], [s.gets, s.gets, s.gets, s.gets]
    end
  end

  def test_each_line_and_readlines_use_rs
    with_rs(";") do
      assert_equal ["a;", "b"], StringIO.new("a;b").readlines
      assert_equal ["a;", "b"], StringIO.new("a;b").each_line.to_a
    end
  end

  def test_gets_limit
    s = StringIO.new("hello\nworld\n")
    assert_equal "hel", s.gets(3)
    assert_equal "lo\n", s.gets(10)
    assert_equal "wo", s.gets("\n", 2)
    assert_equal "", s.gets(0)
  end

  def test_gets_limit_keeps_characters_whole
    assert_equal "é", StringIO.new("éa").gets(1)
  end

  def test_gets_paragraph_mode
    s = StringIO.new("\n\na\nb\n\nc\n")   # (3.3's stringio keeps a run of 3+ newlines; 3.1's and IO's do not)
    assert_equal "a\nb\n\n", s.gets("")
    assert_equal "c\n", s.gets("")
    assert_nil s.gets("")
  end

  def test_gets_nil_reads_the_rest
    assert_equal "a\nb", StringIO.new("a\nb").gets(nil)
  end

  def test_gets_chomp
    assert_equal "a", StringIO.new("a\nb").gets(chomp: true)
  end
end
