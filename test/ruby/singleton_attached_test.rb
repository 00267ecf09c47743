# A singleton class knows the object it belongs to (Class#attached_object, its inspect "#<Class:Foo>",
# class variables of `class << self` going to the class). mnrb keeps that object in the singleton
# class itself while it has no other instance variable, constant or class variable (mruby patch
# 0221: no ivar table for the 93 singleton classes of a ractor's boot); the first of those moves it
# into a table, as does a prepend. Whatever Ruby sees stays CRuby's, in main and in a ractor (whose
# built-in singleton classes come from the copied template), across collections. Expected values
# are CRuby's (the file passes on CRuby 3.3.8 and Debian's 3.1, which lacks attached_object: those
# assertions are skipped there).

module SingletonAttached
  class Foo
    def self.hi = :hi
  end
  module M
    def hi = [:m, super]
  end
end

class SingletonAttachedTest < MnTest::Case
  HAS_ATTACHED = Class.method_defined?(:attached_object)

  def attached(sc) = HAS_ATTACHED ? sc.attached_object : nil

  # ivars, constants and class variables set in singleton classes, then read; the attached object
  # is still the class (by attached_object and inspect), and the class methods still run
  CHECK = <<~'RUBY'
    # ivars: false in a ractor (CRuby's Ractor::IsolationError for any class's ivar there)
    def singleton_attached_check(ivars)
      r = []
      k = Class.new { def self.a = :a }
      sc = k.singleton_class
      r << sc.instance_variables << sc.instance_variable_get(:@x)
      sc.instance_variable_set(:@x, 1) if ivars
      r << sc.instance_variables.size << (!Class.method_defined?(:attached_object) || sc.attached_object.equal?(k))
      GC.start
      r << k.a
      sc.send(:remove_instance_variable, :@x) if ivars
      r << sc.instance_variables << k.a
      k2 = Class.new { def self.b = :b }
      k2.singleton_class.const_set(:K, 5)
      r << k2.singleton_class::K << k2.singleton_class.constants << k2.b
      r << (!Class.method_defined?(:attached_object) || k2.singleton_class.attached_object.equal?(k2))
      k3 = Class.new { def self.c = 1 }
      k3.class_variable_set(:@@cv, 7) if ivars   # a class variable: main only, as ivars
      r << (ivars ? k3.singleton_class.class_variable_get(:@@cv) : 7)
      k4 = Class.new { def self.hi = :hi }
      k4.singleton_class.prepend(Module.new { def hi = [:m, super] })
      k4.singleton_class.const_set(:Y, 2)
      r << k4.hi << k4.singleton_class::Y
      r << (!Class.method_defined?(:attached_object) || k4.singleton_class.attached_object.equal?(k4))
      o = Object.new
      def o.hi = :o
      c = o.clone
      r << c.hi << c.singleton_class.inspect.start_with?("#<Class:#<Object:0x")
      objs = 300.times.map { |i| x = Object.new; x.define_singleton_method(:i) { i }; x }
      GC.start
      r << objs.each_with_index.all? { |x, i| x.i == i && (!Class.method_defined?(:attached_object) || x.singleton_class.attached_object.equal?(x)) }
      fsc = File.singleton_class
      r << fsc.inspect << File.basename("/a/b")
      fsc.instance_variable_set(:@z, 3) if ivars
      GC.start
      r << fsc.instance_variable_get(:@z) << fsc.inspect << File.basename("/c/d")
      r << (!Class.method_defined?(:attached_object) || Comparable.singleton_class.attached_object.equal?(Comparable))
      r
    end
  RUBY
  EXPECTED = [[], nil, 1, true, :a, [], :a, 5, [:K], :b, true, 7, [:m, :hi], 2, true,
              :o, true, true, "#<Class:File>", "b", 3, "#<Class:File>", "d", true]
  # in a ractor: no ivars set
  EXPECTED_RACTOR = EXPECTED.dup.tap { |e| e[2] = 0; e[20] = nil }

  def run_child(src)
    out = IO.popen([RbConfig.ruby, "-e", src], err: [:child, :out], &:read)
    assert $?.success?, "child failed: #{out}"
    out.lines.last
  end

  def test_singleton_class_ivars_constants_class_variables_in_main
    assert_equal EXPECTED, eval(run_child(CHECK + "p singleton_attached_check(true)"))
  end

  def test_singleton_class_ivars_constants_class_variables_in_ractors
    out = run_child(CHECK + <<~'RUBY')
      rs = 2.times.map { Ractor.new { Ractor.receive; singleton_attached_check(false) } }
      rs.each { |r| r << 1 }
      p rs.map(&:take).uniq
    RUBY
    assert_equal [EXPECTED_RACTOR], eval(out)
  end

  def test_prepend_to_a_singleton_class_then_constants_and_ivars
    sc = SingletonAttached::Foo.singleton_class
    sc.prepend(SingletonAttached::M)
    sc.const_set(:C, 1)
    sc.instance_variable_set(:@w, 4)
    assert_equal [:m, :hi], SingletonAttached::Foo.hi
    assert_equal 1, sc::C
    assert_equal 4, sc.instance_variable_get(:@w)
    assert_equal "#<Class:SingletonAttached::Foo>", sc.inspect
    assert_same SingletonAttached::Foo, sc.attached_object if HAS_ATTACHED
  end
end
