# Module#set_temporary_name (CRuby 3.3+; issue 20, bootstraptest/test_ractor.rb L1910 calls it): an
# anonymous class or module shows the name until it gets a permanent one; CRuby's errors for a
# permanent name, an empty one and one that reads as a constant path. mnrb: mnrb-compat's
# temporary_name.c and mruby patch 0200. Checked on CRuby 3.3.8 (3.1 has no such method: skipped).
class ModuleTemporaryNameTest < MnTest::Case
  def setup
    skip "no Module#set_temporary_name before Ruby 3.3" if RUBY_VERSION < "3.3"
  end

  def test_the_name_shows_until_a_permanent_one
    m = Module.new
    assert_same m, m.set_temporary_name("fake_name")
    assert_equal "fake_name", m.name
    assert m.name.frozen?
    assert_equal "fake_name", m.inspect
    assert_equal "fake_name", m.to_s
    c = Class.new
    c.set_temporary_name("tmp <c>")
    assert c.new.inspect.start_with?("#<tmp <c>:0x"), c.new.inspect
    e = assert_raise(NoMethodError) { c.new.no_such_method }
    assert e.message.include?("tmp <c>"), e.message
    self.class.const_set(:Named, c)
    assert_equal "ModuleTemporaryNameTest::Named", c.name
    e = assert_raise(RuntimeError) { c.set_temporary_name("again") }
    assert_equal "can't change permanent name", e.message
  end

  def test_nil_removes_it
    m = Module.new
    m.set_temporary_name("x y")
    assert_same m, m.set_temporary_name(nil)
    assert_nil m.name
    assert m.inspect.start_with?("#<Module:0x"), m.inspect
  end

  def test_refused_names
    m = Module.new
    ["Abc", "Abc::Def", "::Abc"].each do |n|
      e = assert_raise(ArgumentError) { m.set_temporary_name(n) }
      assert_equal "the temporary name must not be a constant path to avoid confusion", e.message
    end
    e = assert_raise(ArgumentError) { m.set_temporary_name("") }
    assert_equal "empty class/module name", e.message
    assert_raise(TypeError) { m.set_temporary_name(:sym) }
    assert_raise(TypeError) { m.set_temporary_name(1) }
    assert_equal "abc::Def", m.set_temporary_name("abc::Def").name
    assert_equal "Abc::def", m.set_temporary_name("Abc::def").name
    assert_equal "AAA::", m.set_temporary_name("AAA::").name
    assert_equal "Ab c", m.set_temporary_name("Ab c").name
    e = assert_raise(RuntimeError) { String.set_temporary_name("x") }
    assert_equal "can't change permanent name", e.message
  end

  def test_nested_names_follow_the_outer
    x = Module.new
    x.set_temporary_name("tt")
    x.const_set(:Y, Module.new)
    assert_equal "tt::Y", x::Y.name
    x.set_temporary_name("uu")
    assert_equal "uu::Y", x::Y.name                 # not kept as permanent below a temporary name
    self.class.const_set(:Outer, x)
    assert_equal "ModuleTemporaryNameTest::Outer::Y", x::Y.name
    assert_equal "ModuleTemporaryNameTest::Outer", x.name
  end

  def test_a_frozen_class_and_its_relatives
    f = Class.new.freeze
    assert_equal "fz", f.set_temporary_name("fz").name
    k = Class.new
    k.set_temporary_name("kk")
    assert_equal "#<Class:kk>", k.singleton_class.inspect
    assert_equal "kk", Class.new(k).superclass.name
  end
end
