# Instance variables of plain objects with none, one, two (kept in the object's own heap slot by
# mruby patch 0071) and more (a table) ivars, and every way of moving between those layouts: set,
# get, defined?, remove, the insertion order of instance_variables and inspect, dup and clone,
# freeze, GC, Marshal, ractor messages and the VM's fast paths (ivar instructions and attr
# methods) reading an object that changed layout. Expected values are CRuby 3.1's (this file
# passes there too).

class IvarEmbedTest < MnTest::Case
  class Two
    attr_accessor :a, :b, :c
    def initialize(a, b)
      @a = a
      @b = b
    end
    def sum = @a + @b
    def set_c(v) = @c = v
    def get_c = @c
  end

  def test_zero_one_two_three_ivars
    o = Object.new
    assert_equal [], o.instance_variables
    assert_nil o.instance_variable_get(:@x)
    assert_equal false, o.instance_variable_defined?(:@x)
    o.instance_variable_set(:@x, 1)
    assert_equal [:@x], o.instance_variables
    assert_equal true, o.instance_variable_defined?(:@x)
    o.instance_variable_set(:@y, 2)
    assert_equal [:@x, :@y], o.instance_variables
    o.instance_variable_set(:@x, 10)
    assert_equal [10, 2], [o.instance_variable_get(:@x), o.instance_variable_get(:@y)]
    o.instance_variable_set(:@z, 3)
    assert_equal [10, 2, 3], %i[@x @y @z].map { |n| o.instance_variable_get(n) }
    assert_equal [:@x, :@y, :@z], o.instance_variables.sort
  end

  def test_insertion_order_of_two
    t = Two.new(1, 2)
    assert_equal [:@a, :@b], t.instance_variables
    o = Object.new
    o.instance_variable_set(:@zz, 1)
    o.instance_variable_set(:@aa, 2)
    assert_equal [:@zz, :@aa], o.instance_variables
    assert_equal "@zz=1, @aa=2", o.inspect[/@zz.*(?=>)/]
  end

  def test_remove_keeps_the_others_and_their_order
    t = Two.new(1, 2)
    assert_equal 1, t.remove_instance_variable(:@a)
    assert_equal [:@b], t.instance_variables
    assert_nil t.a
    assert_equal 2, t.b
    assert_equal false, t.instance_variable_defined?(:@a)
    t.a = 5
    assert_equal [:@a, :@b], t.instance_variables.sort
    assert_equal 7, t.sum
    e = assert_raise(NameError) { t.remove_instance_variable(:@nope) }
    assert_equal :@nope, e.name
    assert_equal 2, t.remove_instance_variable(:@b)
    assert_equal 5, t.remove_instance_variable(:@a)
    assert_equal [], t.instance_variables
    t.b = 9
    assert_equal [:@b], t.instance_variables
    assert_equal 9, t.b
  end

  def test_the_vm_paths_see_an_object_grow_into_a_table
    objs = Array.new(50) { |i| Two.new(i, i) }
    objs.each_with_index { |o, i| o.set_c(i * 10) if i.odd? }
    objs.each_with_index do |o, i|
      assert_equal i * 2, o.sum
      assert_equal(i.odd? ? i * 10 : nil, o.get_c)
      assert_equal(i.odd? ? i * 10 : nil, o.c)
      o.a = -i
      assert_equal 0, o.sum
    end
    o = Two.new(1, 2)
    o.c = 3
    assert_equal [1, 2, 3], [o.a, o.b, o.c]
    assert_equal [:@a, :@b, :@c], o.instance_variables.sort
  end

  def test_dup_and_clone_copy_either_layout
    [Two.new(1, 2), Two.new(1, 2).tap { |o| o.c = 3 }, Object.new].each do |src|
      d = src.dup
      c = src.clone
      assert_equal src.instance_variables, d.instance_variables
      assert_equal src.instance_variables, c.instance_variables
      src.instance_variables.each do |n|
        assert_equal src.instance_variable_get(n), d.instance_variable_get(n)
      end
      d.instance_variable_set(:@a, :changed)
      assert_equal true, src.instance_variable_get(:@a) != :changed
    end
  end

  def test_frozen_objects_refuse_writes_in_both_layouts
    t = Two.new(1, 2).freeze
    assert_raise(FrozenError) { t.a = 3 }
    assert_raise(FrozenError) { t.set_c(3) }
    assert_raise(FrozenError) { t.instance_variable_set(:@q, 1) }
    assert_raise(FrozenError) { t.remove_instance_variable(:@a) }
    assert_equal [1, 2], [t.a, t.b]
  end

  def test_values_survive_gc_in_the_slot
    objs = Array.new(3000) { |i| Two.new("s#{i}", [i]) }
    GC.start
    junk = Array.new(20000) { |i| "junk#{i}" }
    GC.start
    objs.each_with_index do |o, i|
      assert_equal "s#{i}", o.a
      assert_equal [i], o.b
    end
    assert_equal 20000, junk.size
    o = Two.new(nil, nil)
    100.times { |i| o.a = "v#{i}"; o.b = [i] }
    GC.start
    assert_equal ["v99", [99]], [o.a, o.b]
  end

  def test_marshal_round_trip
    t = Two.new(1, "x")
    back = Marshal.load(Marshal.dump(t))
    assert_equal [Two, 1, "x"], [back.class, back.a, back.b]
    assert_equal [:@a, :@b], back.instance_variables
    t.c = [3]
    back = Marshal.load(Marshal.dump(t))
    assert_equal [1, "x", [3]], [back.a, back.b, back.c]
  end

  def test_inspect_and_to_s
    t = Two.new(1, :b)
    assert_equal true, t.inspect.end_with?(" @a=1, @b=:b>")
    assert_equal true, Object.new.inspect.start_with?("#<Object:0x")
  end

  def test_objects_cross_ractors_with_their_ivars
    r = Ractor.new do
      t = Ractor.receive
      t.c = t.a + t.b
      [t, IvarEmbedTest::Two.new(:made, :there)]
    end
    r.send(Two.new(1, 2))
    t, made = r.take
    assert_equal [1, 2, 3], [t.a, t.b, t.c]
    assert_equal [:made, :there], [made.a, made.b]
  end
end
