# private_class_method, public_class_method, private_constant and public_constant take what CRuby
# takes (Symbols, Strings, one Array of names) and answer the receiver; private, public, protected
# and module_function answer nil, the name or the Array of names, so `memoize private def x` gets
# :x. A name the class lacks is CRuby's NameError with #name and #receiver. Their effect on calls
# is method_visibility_test's; constants stay reachable (README), which these checks do not look at.

class ClassMethodVisibilityTest < MnTest::Case
  class Widget
    X = 1
    def self.build = :built
    def self.other = :other
  end

  class Name
    def to_str = "build"
  end

  def newer_wording? = RUBY_VERSION >= "3.4" || mnrb?

  def test_class_method_visibility_answers_the_receiver
    assert_same Widget, Widget.private_class_method(:build)
    assert_same Widget, Widget.private_class_method(:build, "other")
    assert_same Widget, Widget.private_class_method([:build, :other])
    assert_same Widget, Widget.private_class_method
    assert_same Widget, Widget.private_class_method(Name.new)
    assert_same Widget, Widget.public_class_method(:build)
    assert_same Widget, Widget.public_class_method([:build, "other"])
    assert_same Widget, Widget.public_class_method
  end

  def test_inherited_class_methods_count
    assert_same Widget, Widget.private_class_method(:new)
    Widget.public_class_method(:new)
  end

  def test_private_class_method_with_a_def
    c = Class.new { private_class_method def self.made = 1 }
    assert_equal true, c.singleton_class.method_defined?(:made) || c.singleton_class.private_method_defined?(:made)
  end

  def test_unknown_class_method_is_a_name_error
    [:private_class_method, :public_class_method].each do |m|
      e = assert_raise(NameError) { Widget.send(m, :build, :nope) }
      assert_equal :nope, e.name
      assert_same Widget.singleton_class, e.receiver
      if newer_wording?
        assert_equal "undefined method 'nope' for class '#<Class:#{Widget}>'", e.message
      end
    end
  end

  def test_bad_names_are_type_errors
    e = assert_raise(TypeError) { Widget.private_class_method(1) }
    assert_equal "1 is not a symbol nor a string", e.message
    e = assert_raise(TypeError) { Widget.private_class_method(nil) }
    assert_equal "nil is not a symbol nor a string", e.message
    e = assert_raise(TypeError) { Widget.public_class_method([:build], [:other]) }
    assert_equal "[:build] is not a symbol nor a string", e.message
  end

  def test_visibility_answers_the_names
    c = Class.new do
      def a = 1
      def b = 2
    end
    assert_nil c.send(:private)
    assert_equal :a, c.send(:private, :a)
    assert_equal "a", c.send(:public, "a")
    assert_equal [:a, :b], c.send(:protected, :a, :b)
    assert_equal [:a, :b], c.send(:private, [:a, :b])
    assert_equal :d, c.class_eval { private def d = 4 }
    m = Module.new { def f = 1 }
    assert_equal :f, m.send(:module_function, :f)
    assert_equal :puts, m.send(:private, :puts)   # a module also looks in Object
  end

  def test_visibility_of_an_unknown_method_is_a_name_error
    e = assert_raise(NameError) { Widget.send(:private, :nope) }
    assert_equal :nope, e.name
    assert_same Widget, e.receiver
    assert_equal "undefined method 'nope' for class '#{Widget}'", e.message if newer_wording?
  end

  def test_constant_visibility_answers_the_receiver
    assert_same Widget, Widget.private_constant(:X)
    assert_same Widget, Widget.public_constant(:X, "X")
    assert_same Widget, Widget.private_constant
  end

  def test_unknown_constant_is_a_name_error
    e = assert_raise(NameError) { Widget.private_constant(:Nope) }
    assert_equal :Nope, e.name
    assert_same Widget, e.receiver
    assert_equal "constant #{Widget}::Nope not defined", e.message.lines.first.chomp
  end
end
