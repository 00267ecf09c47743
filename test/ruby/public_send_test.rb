# Kernel#public_send: as send for public methods (arguments, keywords, blocks, method_missing), and
# NoMethodError for missing ones, as CRuby's. (The refusal of private and protected methods is
# method_visibility_test's.)
class PublicSendTest < MnTest::Case
  class Foo
    def a(x, k: 1) = [x, k]
    def with_block = yield(2)
  end

  def test_calls_public_methods_with_arguments_keywords_and_blocks
    assert_equal 3, 1.public_send(:+, 2)
    assert_equal [5, 3], Foo.new.public_send(:a, 5, k: 3)
    assert_equal [5, 1], Foo.new.public_send("a", 5)
    assert_equal 4, Foo.new.public_send(:with_block) { |x| x * 2 }
  end

  def test_undefined_methods_raise_no_method_error
    e = assert_raise(NoMethodError) { Foo.new.public_send(:nothing_here) }
    assert_equal :nothing_here, e.name
  end

  def test_method_missing_still_answers
    o = Object.new
    def o.method_missing(n, *a) = n == :mm ? :missing : super
    def o.respond_to_missing?(n, priv = false) = n == :mm
    assert_equal :missing, o.public_send(:mm)
    assert_raise(NoMethodError) { o.public_send(:other) }
  end

  def test_name_must_be_a_symbol_or_string
    e = assert_raise(TypeError) { 1.public_send(1) }
    assert_equal "1 is not a symbol nor a string", e.message
  end
end
