# File.dirname(path, level = 1) as CRuby's (mnrb-compat file.rb).
class FileDirnameTest < MnTest::Case
  def test_plain_paths
    assert_equal ["/a/b", "a", ".", "/", "."], [File.dirname("/a/b/c"), File.dirname("a/b"),
                                             File.dirname("a"), File.dirname("/a"), File.dirname("")]
  end

  def test_trailing_and_repeated_separators
    assert_equal "/a", File.dirname("//a//b//")
    assert_equal "a", File.dirname("a/b/")
    assert_equal "a//b", File.dirname("a//b//c")
    assert_equal "/", File.dirname("//")
    assert_equal "/", File.dirname("///a")
    assert_equal ".", File.dirname("a/")
  end

  def test_levels
    assert_equal "/a", File.dirname("/a/b/c", 2)
    assert_equal ".", File.dirname("a/b/c", 5)
    assert_equal "/a/b", File.dirname("/a/b", 0)
    e = assert_raise(ArgumentError) { File.dirname("a", -1) }
    assert_equal "negative level: -1", e.message
  end

  def test_non_ascii_and_dots
    assert_equal "/é/ü", File.dirname("/é/ü/x")
    assert_equal ".", File.dirname("...")
    assert_equal ".", File.dirname("./x")
  end

  def test_conversions
    assert_raise(TypeError) { File.dirname(1) }
    o = Object.new
    def o.to_path = "/x/y"
    assert_equal "/x", File.dirname(o)
  end
end
