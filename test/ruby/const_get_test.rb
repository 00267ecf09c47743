# Module#const_get(name, inherit = true) as CRuby's: from a class or a module, a first name is looked
# up in the ancestors and then in Object (mnrb raised NameError for `SomeClass.const_get(:String)`);
# later names of a path ("A::B") as `A::B`; with inherit false only the module's own constants.
# Expected values are CRuby 3.1's and 3.3's.
class ConstGetTest < MnTest::Case
  module Outer
    X = 1
    class Inner; Y = 2; end
  end
  class Base; Z = 3; end
  class Derived < Base; end

  def test_a_class_finds_objects_constants
    assert_equal String, Derived.const_get(:String)
    assert_equal Comparable, Derived.const_get("Comparable")
    assert_equal String, Outer.const_get(:String)
  end

  def test_ancestors_first
    assert_equal 3, Derived.const_get(:Z)
    assert_equal 2, Outer.const_get("Inner::Y")
    assert_equal 2, Object.const_get("ConstGetTest::Outer::Inner::Y")
    assert_equal 1, ConstGetTest.const_get("::ConstGetTest::Outer::X")
  end

  def test_without_inherit_only_own_constants
    assert_equal 1, Outer.const_get(:X, false)
    assert_raise(NameError) { Derived.const_get(:Z, false) }
    assert_raise(NameError) { Derived.const_get(:String, false) }
  end

  def test_later_path_names_do_not_reach_object
    assert_raise(NameError) { Outer.const_get("Inner::String") }
  end

  def test_bad_names
    assert_raise(NameError) { Outer.const_get(:x) }
    assert_raise(NameError) { Outer.const_get("X::") }
    assert_raise(TypeError) { Outer.const_get("X::Y") }
  end
end
