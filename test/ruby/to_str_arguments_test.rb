# CRuby takes any object answering to_str where a String argument is expected. These are the
# places where mnrb did not: String padding, split and the pattern methods, comparisons, upto,
# Kernel#String, exception messages (Exception.new, raise), names given to send/respond_to?,
# File.join / expand_path / basename parts, File's tests (exist?, directory?...), Dir.glob. mnrb
# converts in mruby's common helpers (patches/mruby/0068, 0076), mnrb-regexp's pattern argument,
# mnrb-io's path arguments and mnrb-compat's Exception.

class ToStrArgumentsTest < MnTest::Case
  class Str
    def initialize(s) = @s = s
    def to_str = @s
  end

  class Bad
    def to_str = 5
  end

  def s(x) = Str.new(x)

  def test_padding
    assert_equal "**x**", "x".center(5, s("*"))
    assert_equal "x**", "x".ljust(3, s("*"))
    assert_equal "**x", "x".rjust(3, s("*"))
    e = assert_raise(TypeError) { "x".ljust(3, 1) }
    assert_equal "no implicit conversion of Integer into String", e.message
    e = assert_raise(ArgumentError) { "x".center(3, s("")) }
    assert_equal "zero width padding", e.message
  end

  def test_split
    assert_equal ["a", "b"], "a-b".split(s("-"))
    assert_equal ["a", "b"], "a  b".split(s(" "))
    e = assert_raise(TypeError) { "a".split(1) }
    assert_equal "wrong argument type Integer (expected Regexp)", e.message
  end

  def test_pattern_methods
    assert_equal "aXc", "abc".sub(s("b"), s("X"))
    assert_equal "aXcX", "abcb".gsub(s("b"), s("X"))
    assert_equal ["a", "b", "c"], "abc".partition(s("b"))
    assert_equal ["ab", "b", "c"], "abbc".rpartition(s("b"))
    assert_equal ["b", "b"], "abcb".scan(s("b"))
    assert_equal "b", "abc".match(s("b"))[0]
    assert_equal true, "abc".match?(s("b"))
    assert_equal "a.c", "a.c".sub(s("."), ".")   # a String pattern is literal, not a regexp
    e = assert_raise(TypeError) { "abc".sub(1, "") }
    assert_equal "wrong argument type Integer (expected Regexp)", e.message
  end

  def test_comparisons
    assert_equal 0, "b" <=> s("b")
    assert_equal(-1, "a" <=> s("b"))
    assert_nil "a" <=> 1
    assert_equal 0, "B".casecmp(s("b"))
    assert_equal true, "B".casecmp?(s("b"))
    assert_nil "a".casecmp(1)
    assert_equal true, "b".between?(s("a"), s("c"))
    e = assert_raise(TypeError) { "a" <=> Bad.new }
    assert_equal "can't convert #{Bad} to String (#{Bad}#to_str gives Integer)", e.message
  end

  def test_upto
    assert_equal ["a", "b", "c"], "a".upto(s("c")).to_a
    e = assert_raise(TypeError) { "a".upto(nil) { } }
    assert_equal "no implicit conversion of nil into String", e.message
  end

  def test_kernel_string_tries_to_str_first
    o = s("q")
    def o.to_s = "s"
    assert_equal "q", String(o)
    assert_equal "1", String(1)
  end

  def test_method_names
    assert_equal "A", "a".send(s("upcase"))
    assert_equal true, "a".respond_to?(s("upcase"))
    assert_nil Object.new.instance_variable_get(s("@a"))
    e = assert_raise(TypeError) { "a".send(1) }
    assert_equal "1 is not a symbol nor a string", e.message
  end

  def test_exception_messages
    assert_equal "b", RuntimeError.new(s("b")).message
    e = assert_raise(RuntimeError) { raise s("boom") }
    assert_equal "boom", e.message
    o = Object.new
    def o.to_s = "plain"
    assert_equal "plain", RuntimeError.new(o).message
    e = assert_raise(TypeError) { raise 1 }
    assert_equal "exception class/object expected", e.message
  end

  def test_file_path_parts
    assert_equal "a/b", File.join(s("a"), s("b"))
    assert_equal "a/b/c", File.join([s("a"), "b"], s("c"))
    assert_equal "/a/b", File.expand_path(s("b"), s("/a"))
    assert_equal "b", File.basename(s("/a/b.rb"), s(".rb"))
    assert_equal true, File.exist?(s("/"))
    assert_equal true, File.directory?(s("/"))
    assert_equal ["/"], Dir.glob(s("/"))
    assert_equal ["/"], Dir[s("/")]
    e = assert_raise(TypeError) { File.exist?(1) }
    assert_equal "no implicit conversion of Integer into String", e.message
  end
end
