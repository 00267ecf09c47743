# Class.new(Parent) works when Parent.inherited sets an instance variable on the new class (mruby
# patch 0208: Class#initialize took that variable for "already initialized class", TypeError);
# initialize on a finished class still raises. Singleton's subclasses rely on it. Checked on CRuby
# 3.1 and 3.3.8.
require "singleton"

class ClassNewInheritedIvarsTest < MnTest::Case
  class Tracked
    def self.inherited(sub)
      super
      sub.instance_variable_set(:@registry, [sub.name])
    end

    class << self
      attr_reader :registry
    end
  end

  def test_class_new_after_inherited_sets_an_ivar
    k = Class.new(Tracked)
    assert_equal [nil], k.registry
    k2 = Class.new(Tracked) { def hi = :hi }
    assert_equal :hi, k2.new.hi
  end

  def test_initialize_on_a_finished_class_raises
    k = Class.new(Tracked)
    assert_equal "already initialized class", assert_raise(TypeError) { k.send(:initialize) }.message
  end

  class OnlyOne
    include Singleton
  end

  def test_singleton_subclass_has_its_own_instance
    sub = Class.new(OnlyOne)
    assert_same sub.instance, sub.instance
    refute sub.instance.equal?(OnlyOne.instance)
  end
end
