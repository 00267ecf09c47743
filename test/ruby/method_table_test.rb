# Method tables under load (mruby patch 0057: tables grow at 7/8 of any size, not full
# power-of-two tables): many methods defined, redefined, removed, undefined and aliased in one
# class, then every one looked up by a call, respond_to?, instance_methods and method_defined?,
# across every table size a class passes through while growing; and a ractor created after heavy
# definitions still sees them (Ractor.new copies its creator's definitions in mnrb; CRuby shares
# them). Passes on CRuby 3.1 too.

class MethodTableTest < MnTest::Case
  # A fresh class with methods m0..m(n-1), each returning its number.
  def class_with(n)
    Class.new do
      n.times { |i| define_method(:"m#{i}") { i } }
    end
  end

  def test_every_method_is_found_at_every_size_while_growing
    c = Class.new
    o = c.new
    300.times do |n|
      c.define_method(:"g#{n}") { n }
      # after each insertion, every method so far is found, and a missing one is not
      (0..n).each { |i| assert_equal i, o.__send__(:"g#{i}") } if n < 40 || n % 37 == 0
      refute o.respond_to?(:"g#{n + 1}")
      assert_equal n + 1, c.instance_methods(false).size
    end
  end

  def test_redefining_keeps_one_entry_and_the_newest_body
    c = class_with(100)
    100.times { |i| c.define_method(:"m#{i}") { -i } }
    assert_equal 100, c.instance_methods(false).size
    o = c.new
    100.times { |i| assert_equal(-i, o.__send__(:"m#{i}")) }
  end

  def test_removed_methods_are_gone_and_the_rest_remain
    c = class_with(200)
    (0...200).step(2) { |i| c.send(:remove_method, :"m#{i}") }
    o = c.new
    200.times do |i|
      if i.even?
        refute o.respond_to?(:"m#{i}"), "m#{i} was removed"
        assert_raise(NoMethodError) { o.__send__(:"m#{i}") }
      else
        assert_equal i, o.__send__(:"m#{i}")
      end
    end
    assert_equal (1...200).step(2).map { |i| :"m#{i}" }.sort, c.instance_methods(false).sort
  end

  def test_defining_again_after_removing_reuses_the_names
    c = class_with(150)
    3.times do |round|
      150.times { |i| c.send(:remove_method, :"m#{i}") }
      assert_equal [], c.instance_methods(false)
      150.times { |i| c.define_method(:"m#{i}") { i * round } }
    end
    o = c.new
    150.times { |i| assert_equal i * 2, o.__send__(:"m#{i}") }
    assert_equal 150, c.instance_methods(false).size
  end

  def test_undefined_methods_hide_the_superclass_ones
    base = class_with(120)
    sub = Class.new(base)
    (0...120).step(3) { |i| sub.send(:undef_method, :"m#{i}") }
    o = sub.new
    120.times do |i|
      if i % 3 == 0
        refute o.respond_to?(:"m#{i}")
        refute sub.method_defined?(:"m#{i}")
        assert_raise(NoMethodError) { o.__send__(:"m#{i}") }
      else
        assert_equal i, o.__send__(:"m#{i}")
        assert sub.method_defined?(:"m#{i}")
      end
    end
    assert_equal 120, base.instance_methods(false).size
    assert_equal 80, (sub.instance_methods & base.instance_methods(false)).size
  end

  def test_aliases_in_a_big_class
    c = class_with(130)
    130.times { |i| c.send(:alias_method, :"a#{i}", :"m#{i}") }
    130.times { |i| c.define_method(:"m#{i}") { :new } }
    o = c.new
    130.times do |i|
      assert_equal i, o.__send__(:"a#{i}")
      assert_equal :new, o.__send__(:"m#{i}")
    end
    assert_equal 260, c.instance_methods(false).size
  end

  def test_many_singleton_methods
    o = Object.new
    200.times { |i| o.define_singleton_method(:"s#{i}") { i } }
    200.times { |i| assert_equal i, o.__send__(:"s#{i}") }
    assert_equal 200, o.singleton_methods.size
  end

  # def, not define_method: CRuby calls no define_method proc from another ractor
  class Heavy
    400.times { |i| class_eval("def h#{i}; #{i}; end") }
    (0...400).step(5) { |i| remove_method :"h#{i}" }
    (1...400).step(5) { |i| alias_method :"x#{i}", :"h#{i}" }
  end

  def test_a_ractor_created_after_heavy_definitions_sees_them
    r = Ractor.new do
      o = MethodTableTest::Heavy.new
      [o.h399, o.x1, o.x396, o.respond_to?(:h0), o.respond_to?(:h5), Heavy.instance_methods(false).size]
    end
    assert_equal [399, 1, 396, false, false, 400], r.take
  end
end
