# Gaps real programs hit, closed as CRuby 3.3 behaves (checked on CRuby 3.1 and 3.3.8; where 3.1
# words an error otherwise the check runs on 3.3+): Array#rindex with a block or none (an
# Enumerator), String#each_codepoint without a block (an Enumerator), Method#inspect with its
# parameter list, public_methods(false) and its private/protected siblings, an alias's
# UnboundMethod equal to its original's, implicit super in a define_method body (RuntimeError), a
# definition into the frozen singleton class of an object that is not frozen (FrozenError), and
# NameError after instance_eval naming "an instance of Foo".

class CoreGapsTest < MnTest::Case
  class Foo
    def bar(a, b = 1, *c, d:, e: 2, **f, &g); end
    def baz; end
    def fwd(...) = nil
    def lead(a, ...) = nil
    def nokw(**nil); end
    def anon(a, *, b); end
    alias quux bar
    private def priv; end
    protected def prot; end
  end

  class Sub < Foo
    def sub; end
    private def psub; end
    protected def prsub; end
  end

  module Ext
    def ext; end
  end

  class A
    def m(x) = [:a, x]
    def n(*a) = a
  end

  class B < A
    define_method(:m) { |x| super }
    define_method(:explicit) { |x| method(:m).super_method.call(x) }
    define_method(:n) { |x| [1].map { super } }
    def self.wrap(name) = define_method(name) { |*a| super }
  end

  class C < A
    def m(x) = [1].map { super }.first
  end

  def test_array_rindex
    a = [1, 2, 3, 2]
    e = a.rindex
    assert_kind_of Enumerator, e
    assert_equal 3, e.each { |x| x == 2 }
    assert_equal 0, a.rindex { |x| x < 2 }
    assert_equal 3, a.rindex(2)
    assert_nil a.rindex { |x| x > 5 }
    seen = []
    b = [1, 2, 3, 4]
    assert_nil(b.rindex { |x| seen << x; b.pop(2) if x == 4; false })
    assert_equal [4, 2, 1], seen
    assert_raise(ArgumentError) { a.rindex(1, 2) }
  end

  def test_each_codepoint_enumerator
    e = "héllo".each_codepoint
    assert_kind_of Enumerator, e
    assert_equal [104, 233, 108, 108, 111], e.to_a
    assert_equal 5, e.size
    out = []
    s = "ab"
    assert_same s, s.each_codepoint { |c| out << c }
    assert_equal [97, 98], out
  end

  def inspect_of(m) = m.inspect.sub(/ [^ ]+:\d+>\z/, ">")

  def test_method_inspect_lists_parameters
    f = Foo.new
    assert_equal "#<Method: CoreGapsTest::Foo#bar(a, b=..., *c, d:, e: ..., **f, &g)>", inspect_of(f.method(:bar))
    assert_equal "#<Method: CoreGapsTest::Foo#baz()>", inspect_of(f.method(:baz))
    assert_equal "#<Method: CoreGapsTest::Foo#fwd(...)>", inspect_of(f.method(:fwd))
    if RUBY_VERSION >= "3.3"     # (3.1: "(a, ...)")
      assert_equal "#<Method: CoreGapsTest::Foo#lead(a, *, ...)>", inspect_of(f.method(:lead))
    end
    assert_equal "#<Method: CoreGapsTest::Foo#nokw(**nil)>", inspect_of(f.method(:nokw))
    assert_equal "#<Method: CoreGapsTest::Foo#anon(a, *, b)>", inspect_of(f.method(:anon))
    assert_equal "#<Method: CoreGapsTest::Foo#quux(bar)(a, b=..., *c, d:, e: ..., **f, &g)>", inspect_of(f.method(:quux))
    assert_equal "#<UnboundMethod: CoreGapsTest::Foo#bar(a, b=..., *c, d:, e: ..., **f, &g)>",
                 inspect_of(Foo.instance_method(:bar))
    line = Foo.instance_method(:baz).source_location[1]
    assert_equal "#<Method: CoreGapsTest::Foo#baz() #{__FILE__}:#{line}>", f.method(:baz).inspect
    assert_equal f.method(:baz).inspect, f.method(:baz).to_s
  end

  def test_methods_false_lists
    o = Sub.new
    def o.s; end
    o.extend(Ext)
    assert_equal [:ext, :s, :sub], o.public_methods(false).sort
    assert_equal [:sub], Sub.new.public_methods(false)
    assert_equal [:psub], o.private_methods(false)
    assert_equal [:prsub], o.protected_methods(false)
    assert_equal [:s], o.methods(false)
    assert_equal [], Sub.new.methods(false)
    assert_include Foo.public_methods(false), :new
    refute Foo.public_methods(false).include?(:bar)
  end

  def test_alias_unbound_method_equal
    assert_equal Foo.instance_method(:bar), Foo.instance_method(:quux)
    assert Foo.instance_method(:quux) == Foo.instance_method(:bar)
    f = Foo.new
    assert_equal f.method(:bar), f.method(:quux)
    refute Foo.instance_method(:bar) == Foo.instance_method(:baz)
    refute f.method(:bar) == Foo.new.method(:bar)
  end

  IMPLICIT = "implicit argument passing of super from method defined by define_method() is not supported. Specify all arguments explicitly."

  def test_implicit_super_in_define_method
    e = assert_raise(RuntimeError) { B.new.m(1) }
    assert_equal IMPLICIT, e.message
    e = assert_raise(RuntimeError) { B.new.n(1) }
    assert_equal IMPLICIT, e.message
    B.wrap(:n)
    e = assert_raise(RuntimeError) { B.new.n(1) }
    assert_equal IMPLICIT, e.message
    assert_equal [:a, 5], B.new.explicit(5)
    assert_equal [:a, 7], C.new.m(7)
  end

  def test_frozen_singleton_class_of_an_unfrozen_object
    o = Object.new
    o.singleton_class.freeze
    refute o.frozen?
    e = assert_raise(FrozenError) { def o.x; end }
    assert_equal "can't modify frozen object: #{o}", e.message
    assert_raise(FrozenError) { o.define_singleton_method(:y) {} }
    assert_raise(FrozenError) { o.singleton_class.class_eval { def z; end } }
    assert_raise(FrozenError) { o.singleton_class.send(:alias_method, :w, :to_s) }
    refute o.respond_to?(:x)
    c = Class.new.freeze
    e = assert_raise(FrozenError) { c.class_eval { def x; end } }
    assert_equal "can't modify frozen class: #{c}", e.message
    m = Module.new.freeze
    e = assert_raise(FrozenError) { m.send(:define_method, :x) {} }
    assert_equal "can't modify frozen module: #{m}", e.message
  end

  def test_name_error_after_instance_eval
    skip "CRuby 3.3+ wording" unless RUBY_VERSION >= "3.3"
    e = assert_raise(NameError) { Foo.new.instance_eval { nosuch } }
    assert_equal "undefined local variable or method 'nosuch' for an instance of CoreGapsTest::Foo",
                 e.message.lines.first.chomp.tr("`", "'")
    e = assert_raise(NoMethodError) { Foo.new.instance_eval { nosuch() } }
    assert_equal "undefined method 'nosuch' for an instance of CoreGapsTest::Foo", e.message.lines.first.chomp.tr("`", "'")
    o = Foo.new
    def o.single; end
    e = assert_raise(NoMethodError) { o.nosuch }
    assert_equal "undefined method 'nosuch' for #{o}", e.message.lines.first.chomp.tr("`", "'")
  end
end
