# Constant lookups that a cache must not get wrong (patches/mruby/0079-constant-cache.patch keeps
# each state's lookups, valid until a write that can change one): every site is run several times
# before the change (so its result is cached) and after it. Redefinition, remove_const, const_set,
# include, prepend, extend, a class reopened in a nested scope, eval'd code in other classes,
# anonymous classes made and freed in a loop, autoload, const_missing, class ivars beside constants,
# and ractors. Expected values are CRuby 3.1's (this file passes there too).
require "tmpdir"

module CCRedefine
  X = 1
  def self.x = X
  def self.qualified = CCRedefine::X
end

module CCRemove
  Y = :inner
  def self.y = Y
end
CCY_OUTER = :outer_y

class CCShadow
  def self.s = CCShadowed
end
CCShadowed = :top

class CCParent
  Z = :parent
end
class CCIncluder < CCParent
  def z = Z
end
class CCPrepender < CCParent
  def z = Z
end
module CCMixin
  Z = :mixin
end

module CCOuter
  V = :outer
  class Inner
    def v = V
  end
end

class CCMissing
  @calls = 0
  class << self
    attr_accessor :calls
    def const_missing(name)
      @calls += 1
      "missing #{name}"
    end
  end
  def self.nope = CCNope
end

class CCClassIvar
  W = :w
  @count = 0
  @@cvar = 0
  def self.w = W
  def self.bump
    @count += 1
    @@cvar += 1
    W
  end
end

module CCRactorMod
  def self.get = CCRactorVal
  def self.per = CCPerRactor
end
CCRactorVal = :main

class CCEvalA; EV = :a; end
class CCEvalB; EV = :b; end
EV = :top

class ConstantCacheTest < MnTest::Case
  def quietly
    v, $VERBOSE = $VERBOSE, nil
    yield
  ensure
    $VERBOSE = v
  end

  def test_redefined_constant_is_seen
    3.times { assert_equal 1, CCRedefine.x }
    3.times { assert_equal 1, CCRedefine.qualified }
    quietly { CCRedefine.const_set(:X, 2) }
    assert_equal 2, CCRedefine.x
    assert_equal 2, CCRedefine.qualified
    quietly { eval("CCRedefine::X = 3") }
    assert_equal 3, CCRedefine.x
    assert_equal 3, CCRedefine.qualified
  end

  def test_remove_const_then_outer_then_missing_then_set_again
    3.times { assert_equal :inner, CCRemove.y }
    CCRemove.send(:remove_const, :Y)
    e = assert_raise(NameError) { CCRemove.y }
    assert_equal "uninitialized constant CCRemove::Y", e.message.lines.first.chomp
    e = assert_raise(NameError) { CCRemove.y }   # a miss is not cached either
    assert_equal :Y, e.name
    Object.const_set(:Y, :object_y)
    3.times { assert_equal :object_y, CCRemove.y }
    CCRemove.const_set(:Y, :again)
    assert_equal :again, CCRemove.y
  ensure
    Object.send(:remove_const, :Y) if Object.const_defined?(:Y, false)
  end

  def test_const_set_in_the_lexical_class_shadows_the_top_level
    3.times { assert_equal :top, CCShadow.s }
    CCShadow.const_set(:CCShadowed, :class)
    3.times { assert_equal :class, CCShadow.s }
  end

  def test_include_a_module_that_defines_the_name
    o = CCIncluder.new
    3.times { assert_equal :parent, o.z }
    CCIncluder.include(CCMixin)
    3.times { assert_equal :mixin, o.z }
  end

  def test_prepend_a_module_that_defines_the_name
    o = CCPrepender.new
    3.times { assert_equal :parent, o.z }
    CCPrepender.prepend(CCMixin)
    3.times { assert_equal :mixin, o.z }
  end

  def test_extend_gives_the_singleton_scope_a_module_constant
    obj = Object.new
    sc = obj.singleton_class
    2.times { assert_raise(NameError) { sc.class_eval("CCExtendOnly") } }
    m = Module.new
    m.const_set(:CCExtendOnly, :extended)
    obj.extend(m)
    2.times { assert_equal :extended, sc.class_eval("CCExtendOnly") }
  end

  def test_reopened_class_in_a_nested_scope
    o = CCOuter::Inner.new
    3.times { assert_equal :outer, o.v }
    eval("module ::CCOuter; class Inner; V = :inner; end; end")
    3.times { assert_equal :inner, o.v }
    CCOuter::Inner.send(:remove_const, :V)
    assert_equal :outer, o.v
  end

  def test_block_constants_are_lexical_under_class_eval
    3.times { assert_equal [:top, :top], [CCEvalA, CCEvalB].map { |k| k.class_eval { EV } } }
  end

  def test_same_code_evaluated_in_other_classes
    40.times do |i|
      k = i.even? ? CCEvalA : CCEvalB
      assert_equal (i.even? ? :a : :b), k.class_eval("EV")
      assert_equal (i.even? ? :a : :b), k.class_eval("self::EV")
    end
  end

  def test_anonymous_classes_made_and_freed
    300.times do |i|
      k = Class.new
      k.const_set(:AN, i)
      assert_equal i, k.class_eval("AN")
      assert_equal i, k::AN
      GC.start if i % 50 == 0
    end
  end

  def test_qualified_lookup_on_other_modules
    mods = Array.new(5) { |i| m = Module.new; m.const_set(:Q, i); m }
    3.times { assert_equal [0, 1, 2, 3, 4], mods.map { |m| m::Q } }
    quietly { mods[2].const_set(:Q, :two) }
    assert_equal [0, 1, :two, 3, 4], mods.map { |m| m::Q }
    assert_raise(TypeError) { 1::Q }
  end

  def test_autoload_resolves_once_and_is_then_cached
    Dir.mktmpdir("ccache") do |dir|
      File.write(File.join(dir, "cc_autoloaded.rb"), "CCAutoloaded = [:loaded]\n")
      Object.autoload(:CCAutoloaded, File.join(dir, "cc_autoloaded.rb"))
      reader = -> { CCAutoloaded }
      assert_equal File.join(dir, "cc_autoloaded.rb"), Object.autoload?(:CCAutoloaded)
      first = reader.call
      assert_equal [:loaded], first
      3.times { assert_same first, reader.call }
      assert_nil Object.autoload?(:CCAutoloaded)
    end
  end

  def test_const_missing_is_called_every_time_until_defined
    CCMissing.calls = 0
    3.times { assert_equal "missing CCNope", CCMissing.nope }
    assert_equal 3, CCMissing.calls
    CCMissing.const_set(:CCNope, :found)
    3.times { assert_equal :found, CCMissing.nope }
    assert_equal 3, CCMissing.calls
  end

  def test_class_ivar_and_class_variable_writes_beside_constants
    10.times { assert_equal :w, CCClassIvar.bump }
    assert_equal 10, CCClassIvar.instance_variable_get(:@count)
    quietly { CCClassIvar.const_set(:W, :w2) }
    assert_equal :w2, CCClassIvar.w
    assert_equal :w2, CCClassIvar.bump
  end

  def test_constant_looked_up_in_a_ractor
    3.times { assert_equal :main, CCRactorMod.get }
    r = Ractor.new do
      a = []
      3.times { a << CCRactorMod.get }
      a << Ractor.current.class.name
      a
    end
    assert_equal [:main, :main, :main, "Ractor"], r.take
  end

  def test_same_method_in_two_ractors_with_their_own_value
    values = [1, 2].map do |n|
      r = Ractor.new(n) do |v|
        CCRactorMod.send(:remove_const, :CCPerRactor) if CCRactorMod.const_defined?(:CCPerRactor, false)
        CCRactorMod.const_set(:CCPerRactor, v)
        Array.new(3) { CCRactorMod.per } + [CCRactorMod::CCPerRactor]
      end
      r.take
    end
    assert_equal [[1, 1, 1, 1], [2, 2, 2, 2]], values
  end

  # mruby patch 0107: a booted state's cache is made after its first ~32 uncached lookups (none
  # while booting); reads before, across and after that point follow every redefinition. In a
  # program of its own, so that its state has done few lookups when it starts.
  def test_lookups_across_the_cache_warm_up
    src = <<~'RUBY'
      module W; X = 0; def self.x = X; end
      seen = []
      want = []
      cur = 0
      100.times do |i|
        seen << W.x << W::X
        want << cur << cur
        next unless i % 7 == 0
        W.send(:remove_const, :X)
        W.const_set(:X, cur = i + 1)
      end
      p seen == want
    RUBY
    out = IO.popen([RbConfig.ruby, "-e", src], &:read)
    assert_equal "true\n", out
  end
end
