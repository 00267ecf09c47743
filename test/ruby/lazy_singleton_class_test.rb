# A class's singleton class is made when something needs it (mruby patch 0105): until then a class
# without subclasses names its superclass's singleton class as its own class, so class methods are
# inherited as before. Everything Ruby can see must stay as CRuby's, whether the singleton class
# was made or not: class methods inherited and defined later, singleton_methods, the
# singleton_class chain, extend, freeze, class-level ivars, clone, method objects, caches of calls
# made before a class got its own singleton class, and ractors. Expected values are CRuby's (the
# file passes on CRuby 3.1 and 3.3.8).

module LazySC
  class Base
    K = :k
    def self.base = :base
    def self.which = :base
    def self.konst = K
    def self.inherited(sub)
      (@subs ||= []) << sub.name
      super
    end
    def self.subs = @subs
  end
  class Leaf < Base; end             # no class methods of its own: its singleton class is lazy
  class Leaf2 < Base; end
  class Mid < Base; end
  class Deep < Mid; end              # made after Mid: Mid's singleton class exists by then
  class Plain                        # no inherited hook: a ractor may subclass it
    def self.which = :plain
  end
  class PlainLeaf < Plain; end
  module Ext
    def ext = :ext
  end
end

class LazySingletonClassTest < MnTest::Case
  def new_leaf(sup = LazySC::Base) = Class.new(sup)

  def test_class_methods_are_inherited_by_classes_without_their_own
    assert_equal [:base, :base, :base], [LazySC::Leaf.base, LazySC::Deep.base, new_leaf.base]
    assert_equal :k, LazySC::Leaf.konst
    assert LazySC::Leaf.respond_to?(:base)
    assert_equal ["LazySC::Leaf", "LazySC::Leaf2", "LazySC::Mid"], LazySC::Base.subs.compact
  end

  def test_singleton_methods_list_only_the_class_own
    leaf = new_leaf
    assert_equal [], leaf.singleton_methods(false)
    assert_equal [:base, :inherited, :konst, :subs, :which], (leaf.singleton_methods - Object.singleton_methods).sort
    assert_equal [], leaf.singleton_class.instance_methods(false)
    assert_equal [], leaf.methods(false)
    def leaf.own = 1
    assert_equal [:own], leaf.singleton_methods(false)
    assert_equal [:own], leaf.methods(false)
  end

  def test_singleton_class_chain
    leaf = new_leaf
    sc = leaf.singleton_class
    assert_same sc, leaf.singleton_class
    assert sc.singleton_class?
    refute leaf.singleton_class?
    assert_same LazySC::Base.singleton_class, sc.superclass
    assert_same LazySC::Mid.singleton_class, LazySC::Deep.singleton_class.superclass
    assert_same sc, sc.ancestors.first
    assert_same LazySC::Base.singleton_class, sc.ancestors[1]
    assert_equal "#<Class:LazySC::Leaf2>", LazySC::Leaf2.singleton_class.inspect
    assert_same LazySC::Base, LazySC::Leaf.superclass
  end

  def test_class_and_kind_of_a_class
    leaf = new_leaf
    assert_same Class, leaf.class
    assert leaf.instance_of?(Class)
    assert leaf.is_a?(LazySC::Base.singleton_class)
    refute LazySC::Base.is_a?(leaf.singleton_class)
    assert leaf.is_a?(leaf.singleton_class)
    assert LazySC::Base.singleton_class === leaf
  end

  def test_a_class_method_defined_later_on_a_leaf
    leaf, sibling = new_leaf, new_leaf
    calls = -> { [leaf, sibling, LazySC::Base].map(&:which) }
    assert_equal [:base, :base, :base], calls.()   # the same call site, each class's lookup cached
    def leaf.which = :leaf
    assert_equal [:leaf, :base, :base], calls.()
    assert_equal [:leaf, :base], [leaf, sibling].map { |k| k.which }
    refute sibling.respond_to?(:own)
    assert_equal :leaf, Class.new(leaf).which
  end

  def test_a_class_method_defined_later_on_a_class_with_subclasses
    mid = new_leaf
    sub = Class.new(mid)
    subsub = Class.new(sub)
    assert_equal [:base, :base], [sub.which, subsub.which]
    def mid.which = :mid
    assert_equal [:mid, :mid, :mid], [mid, sub, subsub].map(&:which)
    assert_same mid.singleton_class, sub.singleton_class.superclass
  end

  def test_super_in_a_class_method
    leaf = new_leaf
    def leaf.which = [:leaf, super]
    assert_equal [:leaf, :base], leaf.which
    assert_equal [[:leaf, :base]], [Class.new(leaf)].map(&:which)
  end

  def test_class_ltlt_self_and_define_singleton_method
    a, b, c = new_leaf, new_leaf, new_leaf
    class << a
      def via_sclass = :sclass
    end
    b.define_singleton_method(:via_define) { :define }
    c.instance_eval { def via_ieval = :ieval }
    assert_equal [:sclass, :define, :ieval], [a.via_sclass, b.via_define, c.via_ieval]
    assert_equal [[:via_sclass], [:via_define], [:via_ieval]], [a, b, c].map { |k| k.singleton_methods(false) }
  end

  def test_extend_a_leaf
    leaf = new_leaf
    leaf.extend(LazySC::Ext)
    assert_equal :ext, leaf.ext
    refute LazySC::Base.respond_to?(:ext)
    assert_equal [leaf.singleton_class, LazySC::Ext, LazySC::Base.singleton_class], leaf.singleton_class.ancestors[0, 3]
    assert leaf.singleton_class.include?(LazySC::Ext)
    assert_equal [:ext], (leaf.singleton_methods - LazySC::Base.singleton_methods)
  end

  def test_class_level_instance_variables
    leaf = new_leaf
    leaf.instance_variable_set(:@x, 1)
    assert_equal [:@x], leaf.instance_variables
    assert_equal 1, leaf.instance_variable_get(:@x)
    refute LazySC::Base.instance_variable_defined?(:@x)
  end

  def test_freezing_a_leaf_leaves_its_superclass_open
    sup = new_leaf
    leaf = Class.new(sup)
    leaf.freeze
    assert leaf.frozen?
    refute sup.frozen?
    refute sup.singleton_class.frozen?
    def sup.after_freeze = :open
    assert_equal :open, leaf.after_freeze
    assert leaf.singleton_class.frozen?
    assert_raise(FrozenError) { def leaf.x = 1 }
  end

  def test_clone_of_a_leaf
    leaf = new_leaf
    copy = leaf.clone
    assert_equal :base, copy.base
    assert_equal [], copy.singleton_methods(false)
    assert_same LazySC::Base.singleton_class, copy.singleton_class.superclass
    def copy.only_copy = 1
    refute leaf.respond_to?(:only_copy)
    def leaf.only_leaf = 2
    refute copy.respond_to?(:only_leaf)
  end

  def test_method_objects_of_inherited_class_methods
    leaf = new_leaf
    m = leaf.method(:base)
    assert_same LazySC::Base.singleton_class, m.owner
    assert_same leaf, m.receiver
    assert_equal :base, m.call
    assert_raise(NameError) { leaf.singleton_method(:base) }
    def leaf.own = :own
    assert_equal :own, leaf.singleton_method(:own).call
  end

  def test_undef_of_an_inherited_class_method
    leaf = new_leaf
    class << leaf
      undef_method :which
    end
    assert_raise(NoMethodError) { leaf.which }
    assert_equal :base, LazySC::Base.which
  end

  # the singleton class of an object's singleton class is lazy too: until made, it is the
  # object's class's singleton class that answers
  def test_singleton_class_of_an_objects_singleton_class
    o = LazySC::Plain.new
    def o.own = 1
    sc = o.singleton_class
    assert_equal :plain, sc.which
    assert_equal [], sc.singleton_methods(false)
    meta = sc.singleton_class
    assert_same meta, sc.singleton_class
    assert_same LazySC::Plain.singleton_class, meta.superclass
    def sc.on_meta = :meta
    assert_equal [:on_meta], sc.singleton_methods(false)
    other = LazySC::Plain.new
    def other.own = 2
    refute other.singleton_class.respond_to?(:on_meta)
    assert_equal :plain, other.singleton_class.which
    copy = o.clone
    assert_equal [1, :meta], [copy.own, copy.singleton_class.on_meta]
    copy2 = other.clone
    assert_equal :plain, copy2.singleton_class.which
    assert_same LazySC::Plain.singleton_class, copy2.singleton_class.singleton_class.superclass
  end

  def test_singleton_class_of_a_modules_singleton_class
    assert_same Module.singleton_class, Math.singleton_class.singleton_class.superclass
    m = Module.new
    def m.f = 1
    assert_same Module.singleton_class, m.singleton_class.singleton_class.superclass
    assert_equal [], m.singleton_class.singleton_methods(false)
  end

  def test_built_in_leaf_classes
    assert_same IndexError.singleton_class, KeyError.singleton_class.superclass
    assert_same StandardError.singleton_class, ZeroDivisionError.singleton_class.superclass
    assert_equal [], FloatDomainError.singleton_methods(false)
    assert_include KeyError.singleton_methods, :exception
    assert_equal "#<Class:KeyError>", KeyError.singleton_class.inspect
    e = KeyError.new("m", receiver: 1, key: 2)
    assert_equal [1, 2], [e.receiver, e.key]
  end

  def test_lazily_made_singleton_classes_survive_collections
    GC.stress = true
    begin
      ks = Array.new(3) { new_leaf }
      ks.each_with_index { |k, i| k.define_singleton_method(:i) { i } }
    ensure
      GC.stress = false
    end
    GC.start
    assert_equal [0, 1, 2], ks.map(&:i)
    assert_equal [:base] * 3, ks.map(&:base)
  end

  def test_marshal_of_a_leaf
    assert_same LazySC::Leaf, Marshal.load(Marshal.dump(LazySC::Leaf))
  end

  def test_in_a_ractor
    r = Ractor.new do
      leaf = Class.new(LazySC::PlainLeaf)
      [LazySC::Leaf.base, LazySC::Leaf.singleton_methods(false), LazySC::Deep.konst,
       LazySC::Leaf.singleton_class.superclass == LazySC::Base.singleton_class,
       KeyError.singleton_class.superclass == IndexError.singleton_class,
       leaf.which, (def leaf.which = :r; leaf.which), LazySC::PlainLeaf.which, LazySC::Plain.which]
    end
    assert_equal [:base, [], :k, true, true, :plain, :r, :plain, :plain], r.take
  end
end
