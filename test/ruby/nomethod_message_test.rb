# NoMethodError's message names the receiver as CRuby 3.3+ does (never by #inspect): "for nil",
# "for an instance of Integer", "for class Foo", "for module Bar", "for main". CRuby 3.1 said
# "for 1:Integer" and quoted with a backtick, so the checks run where RUBY_VERSION is 3.3+.

NOMETHOD_MAIN = self

class NomethodMessageTest < MnTest::Case
  class Foo; end
  module Bar; end
  class NoSuper
    def m = super
  end

  def setup
    skip "CRuby 3.3+ wording" unless RUBY_VERSION >= "3.3"
  end

  def message_of
    yield
    flunk "no NoMethodError"
  rescue NoMethodError => e
    e.message.lines.first.chomp
  end

  def test_an_instance
    assert_equal "undefined method 'each' for an instance of Integer", message_of { 1.each }
    assert_equal "undefined method 'foo' for an instance of String", message_of { "s".foo }
    assert_equal "undefined method 'foo' for an instance of NomethodMessageTest::Foo", message_of { Foo.new.foo }
  end

  def test_nil_true_and_false
    assert_equal "undefined method 'foo' for nil", message_of { nil.foo }
    assert_equal "undefined method 'foo' for true", message_of { true.foo }
    assert_equal "undefined method 'foo' for false", message_of { false.foo }
  end

  def test_a_class_and_a_module
    assert_equal "undefined method 'foo' for class NomethodMessageTest::Foo", message_of { Foo.foo }
    assert_equal "undefined method 'foo' for module NomethodMessageTest::Bar", message_of { Bar.foo }
  end

  def test_the_top_level_self
    assert_equal "undefined method 'foo' for main", message_of { NOMETHOD_MAIN.foo }
  end

  def test_an_object_with_a_singleton_class_is_named_by_its_default_to_s
    o = Object.new
    def o.inspect = "secret"
    msg = message_of { o.foo }
    assert(/\Aundefined method 'foo' for #<Object:0x\h+>\z/.match?(msg), msg)
  end

  def test_the_inspect_of_the_receiver_is_not_called
    klass = Class.new { def inspect = raise("inspect called") }
    msg = message_of { klass.new.foo }
    assert(/\Aundefined method 'foo' for an instance of #<Class:0x\h+>\z/.match?(msg), msg)
  end

  def test_a_missing_super_method
    assert_equal "super: no superclass method 'm' for an instance of NomethodMessageTest::NoSuper", message_of { NoSuper.new.m }
  end
end
