# Method dispatch through a call site that has already run (patches/mruby/0037: the VM probes the
# method cache inline, runs attr_reader/attr_writer without a frame and turns Class#new's frame
# into initialize's): every way Ruby changes what a call finds must be seen by a site that
# cached the old answer. Each test first runs the same call site (one method, `call_*`) so its
# lookup is cached, then changes the classes, then runs the same site again. Passes on CRuby 3.1.

module InlineCacheSites
  def self.call_foo(o) = o.foo
  def self.call_bar(o, x) = o.bar(x)
  def self.call_value(o) = o.value
  def self.set_value(o, v) = (o.value = v)
  def self.make(c, *a, **k, &b) = c.new(*a, **k, &b)
  def self.make2(c, x, y) = c.new(x, y)
end

class InlineCacheTest < MnTest::Case
  S = InlineCacheSites

  def fresh_class(&body) = Class.new(&body)

  def test_redefinition_is_seen_by_a_cached_site
    c = fresh_class { def foo = 1 }
    o = c.new
    3.times { assert_equal 1, S.call_foo(o) }
    c.class_eval { def foo = 2 }
    assert_equal 2, S.call_foo(o)
  end

  def test_module_included_later_overrides_the_superclass
    base = fresh_class { def foo = :base }
    c = Class.new(base)
    o = c.new
    3.times { assert_equal :base, S.call_foo(o) }
    m = Module.new { def foo = :module }
    c.include(m)
    assert_equal :module, S.call_foo(o)
  end

  def test_module_prepended_later_overrides_the_class
    c = fresh_class { def foo = :class }
    o = c.new
    3.times { assert_equal :class, S.call_foo(o) }
    c.prepend(Module.new { def foo; [:prepended, super]; end })
    assert_equal [:prepended, :class], S.call_foo(o)
  end

  def test_method_added_to_an_included_module_later
    m = Module.new
    base = fresh_class { def foo = :base }
    c = Class.new(base) { include m }
    o = c.new
    3.times { assert_equal :base, S.call_foo(o) }
    m.module_eval { def foo = :module }
    assert_equal :module, S.call_foo(o)
  end

  def test_singleton_method_changes_one_object_only
    c = fresh_class { def foo = :plain }
    a = c.new
    b = c.new
    3.times { assert_equal :plain, S.call_foo(a) }
    def b.foo = :singleton
    assert_equal :singleton, S.call_foo(b)
    assert_equal :plain, S.call_foo(a)
    a.extend(Module.new { def foo = :extended })
    assert_equal :extended, S.call_foo(a)
  end

  def test_removed_method_falls_back_to_the_superclass
    base = fresh_class { def foo = :base }
    c = Class.new(base) { def foo = :sub }
    o = c.new
    3.times { assert_equal :sub, S.call_foo(o) }
    c.send(:remove_method, :foo)
    assert_equal :base, S.call_foo(o)
  end

  def test_undefined_method_raises_no_method_error
    c = fresh_class { def foo = 1 }
    o = c.new
    3.times { S.call_foo(o) }
    c.send(:undef_method, :foo)
    assert_raise(NoMethodError) { S.call_foo(o) }
  end

  def test_alias_keeps_the_old_body_and_follows_realias
    c = fresh_class do
      def orig = :one
      alias_method :foo, :orig
    end
    o = c.new
    3.times { assert_equal :one, S.call_foo(o) }
    c.class_eval { def orig = :two }
    assert_equal :one, S.call_foo(o)
    c.class_eval { alias_method :foo, :orig }
    assert_equal :two, S.call_foo(o)
  end

  def test_method_missing_then_a_real_method
    c = fresh_class do
      def method_missing(name, *args) = name == :foo ? [:missing, *args] : super
      def respond_to_missing?(name, priv = false) = name == :foo || super
    end
    o = c.new
    3.times { assert_equal [:missing], S.call_foo(o) }
    assert o.respond_to?(:foo)
    c.class_eval { def foo = :real }
    assert_equal :real, S.call_foo(o)
    c.send(:remove_method, :foo)
    assert_equal [:missing], S.call_foo(o)
  end

  def test_one_site_many_receiver_classes
    classes = (1..6).map { |i| fresh_class { define_method(:bar) { |x| x * i } } }
    objs = classes.map(&:new)
    3.times do
      objs.each_with_index { |o, i| assert_equal 10 * (i + 1), S.call_bar(o, 10) }
    end
    classes[2].class_eval { def bar(x) = -x }
    assert_equal [10, 20, -10, 40, 50, 60], objs.map { |o| S.call_bar(o, 10) }
  end

  def test_superclass_method_redefined_under_a_cached_subclass_site
    base = fresh_class { def foo = :v1 }
    c = Class.new(base)
    o = c.new
    3.times { assert_equal :v1, S.call_foo(o) }
    base.class_eval { def foo = :v2 }
    assert_equal :v2, S.call_foo(o)
  end

  def test_super_after_redefinition_of_the_parent
    base = fresh_class { def foo = :a }
    c = Class.new(base) { def foo; [:c, super]; end }
    o = c.new
    3.times { assert_equal [:c, :a], S.call_foo(o) }
    base.class_eval { def foo = :b }
    assert_equal [:c, :b], S.call_foo(o)
  end

  def test_reopened_class_in_a_ractor_is_seen_there
    r = Ractor.new do
      k = Class.new { def foo = 1 }
      o = k.new
      call = ->(x) { x.foo }
      before = 3.times.map { call.(o) }
      k.class_eval { def foo = 2 }
      [before, call.(o)]
    end
    assert_equal [[1, 1, 1], 2], r.take
  end

  # attr_reader / attr_writer

  def test_attr_reader_and_writer_through_a_cached_site
    c = fresh_class { attr_accessor :value }
    o = c.new
    assert_nil S.call_value(o)
    3.times { |i| assert_equal i, S.set_value(o, i) }
    assert_equal 2, S.call_value(o)
    assert_equal 2, o.instance_variable_get(:@value)
  end

  def test_attr_reader_replaced_by_a_method
    c = fresh_class { attr_reader :value; def initialize = @value = :ivar }
    o = c.new
    3.times { assert_equal :ivar, S.call_value(o) }
    c.class_eval { def value = :method }
    assert_equal :method, S.call_value(o)
  end

  def test_method_replaced_by_an_attr_reader
    c = fresh_class { def value = :method; def initialize = @value = :ivar }
    o = c.new
    3.times { assert_equal :method, S.call_value(o) }
    c.class_eval { attr_reader :value }
    assert_equal :ivar, S.call_value(o)
  end

  def test_attr_writer_on_a_frozen_object_raises
    c = fresh_class { attr_accessor :value }
    o = c.new
    3.times { S.set_value(o, 1) }
    o.freeze
    assert_raise(FrozenError) { S.set_value(o, 2) }
    assert_equal 1, S.call_value(o)
  end

  def test_attr_on_a_class_receiver
    c = fresh_class
    c.singleton_class.send(:attr_accessor, :value)
    3.times { |i| S.set_value(c, i) }
    assert_equal 2, S.call_value(c)
    assert_equal 2, c.instance_variable_get(:@value)
  end

  def test_attr_arity_errors
    c = fresh_class { attr_accessor :value }
    o = c.new
    assert_raise(ArgumentError) { o.value(1) }
    assert_raise(ArgumentError) { o.send(:value=) }
    assert_raise(ArgumentError) { o.send(:value=, 1, 2) }
  end

  def test_attr_reader_of_a_singleton
    c = fresh_class { attr_reader :value }
    o = c.new
    o.instance_variable_set(:@value, 5)
    3.times { assert_equal 5, S.call_value(o) }
    def o.value = 6
    assert_equal 6, S.call_value(o)
  end

  # Class#new + initialize

  def test_new_returns_the_object_not_initializes_value
    c = fresh_class do
      attr_reader :x
      def initialize(x) = (@x = x; :ignored)
    end
    3.times { |i| o = S.make(c, i); assert_equal c, o.class; assert_equal i, o.x }
  end

  def test_new_with_an_early_return_and_a_return_from_a_block
    c = fresh_class do
      attr_reader :x
      def initialize(x)
        @x = x
        return 42 if x == 1
        [1].each { return :from_block } if x == 2
        :last
      end
    end
    [0, 1, 2, 0].each { |i| assert_equal i, S.make(c, i).x }
  end

  def test_break_out_of_the_block_of_new_gives_the_break_value
    c = fresh_class do
      def initialize(direct) = direct ? yield : [1].each { yield }
    end
    3.times do
      assert_equal 5, c.new(true) { break 5 }
      assert_equal 6, c.new(false) { break 6 }
      assert_equal c, c.new(true) { 7 }.class
    end
  end

  def test_new_passes_splat_keywords_and_block
    c = fresh_class do
      attr_reader :got
      def initialize(a, *rest, k: 0, **opts, &blk) = @got = [a, rest, k, opts, blk&.call]
    end
    3.times do
      assert_equal [1, [2, 3], 4, { z: 5 }, :blk], S.make(c, 1, 2, 3, k: 4, z: 5) { :blk }.got
      assert_equal [1, [], 0, {}, nil], S.make(c, 1).got
    end
  end

  def test_new_argument_errors_name_initialize
    c = fresh_class { def initialize(a, b) = nil }
    3.times { S.make2(c, 1, 2) }
    e = assert_raise(ArgumentError) { S.make(c, 1) }
    assert_include e.message, "wrong number of arguments"
  end

  def test_exception_in_initialize_propagates
    c = fresh_class { def initialize(x) = raise(IndexError, "bad #{x}") }
    3.times { |i| assert_equal "bad #{i}", assert_raise(IndexError) { S.make(c, i) }.message }
  end

  def test_initialize_defined_redefined_and_removed_later
    base = fresh_class { attr_reader :v; def initialize(*) = @v = :base }
    c = Class.new(base)
    3.times { assert_equal :base, S.make(c).v }
    c.class_eval { def initialize(*) = @v = :sub }
    assert_equal :sub, S.make(c).v
    c.class_eval { def initialize(*) = (super; @v = [:sub2, @v]) }
    assert_equal [:sub2, :base], S.make(c).v
    c.send(:remove_method, :initialize)
    assert_equal :base, S.make(c).v
  end

  def test_initialize_from_a_module_included_later
    c = fresh_class { attr_reader :v; def initialize = @v = :class }
    3.times { assert_equal :class, S.make(c).v }
    c.prepend(Module.new { def initialize = (super; @v = [:mod, @v]) })
    assert_equal [:mod, :class], S.make(c).v
  end

  def test_new_redefined_on_the_class
    c = fresh_class { attr_reader :v; def initialize(x = 0) = @v = x }
    3.times { assert_equal 0, S.make(c).v }
    def c.new(*) = :custom
    assert_equal :custom, S.make(c)
    c.singleton_class.send(:remove_method, :new)
    assert_equal 7, S.make(c, 7).v
  end

  def test_new_without_initialize_and_of_builtin_classes
    c = fresh_class
    3.times { assert_equal c, S.make(c).class }
    assert_equal "ab", S.make(String, "ab")
    assert_equal [0, 0], S.make(Array, 2, 0)
    e = Class.new(StandardError) { def initialize(m) = super("E: #{m}") }
    assert_equal "E: x", S.make(e, "x").message
    assert_raise(TypeError) { S.make(c.singleton_class) }
  end

  def test_new_through_send_and_method_objects
    c = fresh_class { attr_reader :v; def initialize(x) = @v = x }
    assert_equal 1, c.send(:new, 1).v
    assert_equal 2, c.method(:new).call(2).v
    assert_equal [3, 4], [3, 4].map { |x| c.new(x) }.map(&:v)
  end

  def test_fiber_yield_inside_initialize
    c = fresh_class { attr_reader :v; def initialize = @v = Fiber.yield(:paused) }
    f = Fiber.new { S.make(c) }
    assert_equal :paused, f.resume
    o = f.resume(:resumed)
    assert_equal c, o.class
    assert_equal :resumed, o.v
  end

  def test_deep_new_recursion_in_initialize
    c = fresh_class do
      attr_reader :child
      def initialize(n) = @child = (n > 0 ? self.class.new(n - 1) : nil)
    end
    o = S.make(c, 200)
    depth = 0
    depth += 1 while (o = o.child)
    assert_equal 200, depth
  end

  # Array#include? (C, mnrb-compat's array_include.c; its own test is array_include_test.rb)

  def test_array_include_uses_element_equality
    assert [0, 1].include?(1)
    refute [0, 1].include?(2)
    assert [1].include?(1.0)
    assert [1.0].include?(1)
    assert [2**70].include?(2**70)
    assert ["a", :b, nil].include?(nil)
    refute [].include?(nil)
    eq = Object.new
    def eq.==(o) = o == :x
    assert [eq].include?(:x)
    refute [eq].include?(:y)
    asked = []
    spy = Object.new
    spy.define_singleton_method(:==) { |o| asked << o; false }
    refute [spy, spy].include?(:q)
    assert_equal [:q, :q], asked
  end

  def test_array_include_when_equality_shrinks_the_array
    a = []
    shrink = Object.new
    shrink.define_singleton_method(:==) { |_| a.clear; false }
    a.push(shrink, 1, 2)
    refute a.include?(2)
    assert_raise(ArgumentError) { [1].include? }
  end
end

# Instance variables read and written in place (patches/mruby/0038): growth past the first slots,
# removal, copies, frozen objects, and the write barrier of an old object pointing at new ones.
class IvarFastPathTest < MnTest::Case
  class Many
    def fill(n) = n.times { |i| instance_variable_set(:"@v#{i}", i) }
    def set_a(v) = (@a = v)
    def a = @a
    def b = @b
    def set_b(v) = (@b = v)
  end

  def test_many_ivars_grow_the_table
    o = Many.new
    o.set_a(:a)
    o.fill(40)
    o.set_b(:b)
    assert_equal :a, o.a
    assert_equal :b, o.b
    assert_equal (0...40).to_a, (0...40).map { |i| o.instance_variable_get(:"@v#{i}") }
    o.set_a(1)
    assert_equal 1, o.a
    assert_equal 42, o.instance_variables.size
  end

  def test_removed_ivar_reads_nil_and_can_be_set_again
    o = Many.new
    o.set_a(1)
    o.set_b(2)
    assert_equal 1, o.remove_instance_variable(:@a)
    assert_nil o.a
    o.set_a(3)
    assert_equal [3, 2], [o.a, o.b]
  end

  def test_dup_and_clone_copy_ivars_independently
    o = Many.new
    o.set_a([1])
    c = o.dup
    c.set_a(:other)
    assert_equal [[1], :other], [o.a, c.a]
  end

  def test_setting_an_ivar_of_a_frozen_object_raises
    o = Many.new
    o.set_a(1)
    o.freeze
    assert_raise(FrozenError) { o.set_a(2) }
    assert_equal 1, o.a
  end

  def test_old_object_keeps_young_values_through_gc
    holders = Array.new(50) { Many.new.tap { |h| h.set_a(nil); h.set_b(nil) } }
    GC.start
    500.times do |round|
      holders.each_with_index { |h, i| h.set_a("a#{round}-#{i}"); h.set_b([round, i]) }
      Array.new(200) { "garbage" * 3 }
    end
    GC.start
    holders.each_with_index do |h, i|
      assert_equal "a499-#{i}", h.a
      assert_equal [499, i], h.b
    end
  end
end
