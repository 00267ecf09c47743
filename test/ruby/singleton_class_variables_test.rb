# A singleton class of a class or module sees that class's class variables (CRuby's
# cvar_front_klass), and a clone's singleton class belongs to the clone. Expected values: CRuby 3.1
# and 3.3.8 (attached_object is 3.2+: checked on 3.3.8).

class SingletonClassVariablesTest < MnTest::Case
  class Holder
    @@count = 1
  end

  def test_singleton_class_sees_class_variables
    sc = Holder.singleton_class
    assert_equal true, sc.class_variable_defined?(:@@count)
    assert_equal false, sc.class_variable_defined?(:@@other)
    assert_equal [:@@count], sc.class_variables
    assert_equal 1, sc.class_variable_get(:@@count)
  end

  def test_singleton_class_of_a_module_sees_its_class_variables
    m = Module.new
    m.class_variable_set(:@@m, 2)
    assert_equal true, m.singleton_class.class_variable_defined?(:@@m)
  end

  def test_singleton_class_of_an_object_sees_its_class_chain_only
    assert_equal true, Holder.new.singleton_class.class_variable_defined?(:@@count)
    assert_equal false, Object.new.singleton_class.class_variable_defined?(:@@count)
  end

  def test_clone_singleton_class_attached_to_clone
    return skip("attached_object is CRuby 3.2+") unless Class.method_defined?(:attached_object)
    o = Object.new
    def o.hi = :hi
    c = o.clone
    assert_same c, c.singleton_class.attached_object
    assert_same o, o.singleton_class.attached_object
    assert_equal :hi, c.hi
  end

  def test_cloned_class_singleton_attached_to_the_clone
    return skip("attached_object is CRuby 3.2+") unless Class.method_defined?(:attached_object)
    k = Class.new { def self.x = 1 }
    k2 = k.clone
    assert_same k2, k2.singleton_class.attached_object
  end
end
