# A name a class does not have is cached like a found method (patches/mruby/0064): every way Ruby
# makes the name appear later must be seen by the call site or `respond_to?` that missed it. Each
# test misses first, several times (the miss is cached after the first), then changes the classes,
# then asks again at the same site. Passes on CRuby 3.1.

module MethodCacheMissSites
  def self.responds?(o) = o.respond_to?(:foo)
  def self.call_foo(o) = o.foo
  def self.equal_one?(o) = (1 == o)
end

class MethodCacheMissesTest < MnTest::Case
  S = MethodCacheMissSites

  def missed(o)
    3.times { assert_equal false, S.responds?(o) }
  end

  def test_method_defined_in_the_class_later
    c = Class.new
    o = c.new
    missed(o)
    c.class_eval { def foo = :class }
    assert_equal true, S.responds?(o)
    assert_equal :class, S.call_foo(o)
  end

  def test_method_defined_in_a_superclass_later
    base = Class.new
    o = Class.new(base).new
    missed(o)
    base.class_eval { def foo = :base }
    assert_equal :base, S.call_foo(o)
  end

  def test_module_included_later
    c = Class.new
    o = c.new
    missed(o)
    c.include(Module.new { def foo = :included })
    assert_equal :included, S.call_foo(o)
  end

  def test_method_added_to_an_included_module_later
    m = Module.new
    c = Class.new { include m }
    o = c.new
    missed(o)
    m.module_eval { def foo = :module }
    assert_equal :module, S.call_foo(o)
  end

  def test_module_prepended_later
    c = Class.new
    o = c.new
    missed(o)
    c.prepend(Module.new { def foo = :prepended })
    assert_equal :prepended, S.call_foo(o)
  end

  def test_object_extended_later
    c = Class.new
    o = c.new
    missed(o)
    missed(c.new)
    o.extend(Module.new { def foo = :extended })
    assert_equal :extended, S.call_foo(o)
    assert_equal false, S.responds?(c.new)
  end

  def test_singleton_method_defined_later
    o = Class.new.new
    missed(o)
    def o.foo = :singleton
    assert_equal :singleton, S.call_foo(o)
  end

  def test_alias_and_define_method_later
    c = Class.new { def bar = :bar }
    o = c.new
    missed(o)
    c.send(:alias_method, :foo, :bar)
    assert_equal :bar, S.call_foo(o)
    d = Class.new
    p = d.new
    missed(p)
    d.send(:define_method, :foo) { :defined }
    assert_equal :defined, S.call_foo(p)
  end

  def test_undef_then_define_again
    c = Class.new { def foo = :first }
    o = c.new
    3.times { assert_equal true, S.responds?(o) }
    c.send(:undef_method, :foo)
    missed(o)
    assert_raise(NoMethodError) { S.call_foo(o) }
    c.class_eval { def foo = :second }
    assert_equal :second, S.call_foo(o)
  end

  def test_removed_method_then_found_in_the_superclass
    base = Class.new
    c = Class.new(base) { def foo = :sub }
    o = c.new
    assert_equal :sub, S.call_foo(o)
    c.send(:remove_method, :foo)
    missed(o)
    base.class_eval { def foo = :base }
    assert_equal :base, S.call_foo(o)
  end

  def test_a_missed_call_then_defined
    c = Class.new
    o = c.new
    3.times { assert_raise(NoMethodError) { S.call_foo(o) } }
    c.class_eval { def foo = :now }
    assert_equal :now, S.call_foo(o)
  end

  def test_method_missing_defined_after_misses
    c = Class.new
    o = c.new
    3.times { assert_raise(NoMethodError) { S.call_foo(o) } }
    c.class_eval { def method_missing(name, *) = [:missing, name] }
    assert_equal [:missing, :foo], S.call_foo(o)
  end

  # Integer#== with an object that is not a number asks it (CRuby: `o == 1`; mnrb when it has coerce)
  def test_integer_equality_sees_coerce_and_eq_defined_later
    c = Class.new
    o = c.new
    3.times { assert_equal false, S.equal_one?(o) }
    c.class_eval do
      def coerce(n) = [n, 1]
      def ==(other) = other == 1
    end
    assert_equal true, S.equal_one?(o)
  end
end
