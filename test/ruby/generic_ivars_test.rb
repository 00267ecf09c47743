# Instance variables of objects whose type keeps no ivar table in the object (Array, String, Range,
# Proc, Struct): mruby patch 0089 keeps them in a per-state side table, as CRuby's "generic ivars".
# Set and read from methods of subclasses (initialize, attr_accessor, ||=), the reflection methods,
# the order of instance_variables, remove_instance_variable, FrozenError, dup and clone, the GC
# (an ivar keeps its value alive; a dead object's entry goes) and inspect (CRuby does not show an
# Array's or a String's ivars). Expected values are CRuby 3.1's (this file passes there too).

class GenericIvarsTest < MnTest::Case
  class L < Array
    def initialize(*)
      super
      @meta = 1
    end
    attr_reader :meta
    attr_accessor :note
  end

  class S < String
    def tag = (@tag ||= "t")
    def tag=(v)
      @tag = v
    end
  end

  class Pt < Struct.new(:x, :y)
    def label = (@label ||= "p#{x}")
  end

  def test_array_subclass_initialize_sets_an_ivar
    l = L.new([1, 2])
    assert_equal 1, l.meta
    assert_equal [1, 2], l.to_a
    assert_equal [:@meta], l.instance_variables
  end

  def test_attr_accessor_on_an_array_subclass
    l = L.new
    assert_nil l.note
    l.note = "n"
    assert_equal "n", l.note
    assert_equal [:@meta, :@note], l.instance_variables
  end

  def test_or_assign_on_a_string_subclass
    s = S.new("x")
    assert_equal "t", s.tag
    s.tag = "u"
    assert_equal "u", s.tag
    assert_equal "x", s
    assert_equal [:@tag], s.instance_variables
  end

  def test_struct_subclass_ivar
    pt = Pt.new(3, 4)
    assert_equal "p3", pt.label
    assert_equal [:@label], pt.instance_variables
    assert_equal [3, 4], pt.to_a
  end

  def test_reflection_on_a_plain_array
    a = []
    assert_nil a.instance_variable_get(:@x)
    assert_equal false, a.instance_variable_defined?(:@x)
    assert_equal 1, a.instance_variable_set(:@x, 1)
    assert_equal 1, a.instance_variable_get(:@x)
    assert_equal true, a.instance_variable_defined?(:@x)
    assert_equal [:@x], a.instance_variables
    assert_equal [], [].instance_variables
  end

  def test_range_and_proc_hold_ivars
    pr = proc { 1 }
    pr.instance_variable_set(:@name, "pr")
    assert_equal "pr", pr.instance_variable_get(:@name)
    assert_equal 1, pr.call
    lam = lambda { |x| x }
    lam.instance_variable_set(:@a, 2)
    assert_equal [:@a], lam.instance_variables
  end

  def test_instance_variables_in_the_order_set
    s = +"s"
    names = %i[@z @a @m @b @y @c @x @d @w]
    names.each_with_index { |n, i| s.instance_variable_set(n, i) }
    assert_equal names, s.instance_variables
    s.instance_variable_set(:@a, 100)   # overwriting keeps the place
    assert_equal names, s.instance_variables
    assert_equal 100, s.instance_variable_get(:@a)
  end

  def test_remove_instance_variable
    a = [1]
    a.instance_variable_set(:@x, 1)
    a.instance_variable_set(:@y, 2)
    a.instance_variable_set(:@z, 3)
    assert_equal 2, a.remove_instance_variable(:@y)
    assert_equal [:@x, :@z], a.instance_variables
    assert_equal false, a.instance_variable_defined?(:@y)
    e = assert_raise(NameError) { a.remove_instance_variable(:@y) }
    assert_equal "instance variable @y not defined", e.message.lines.first.chomp
    assert_equal :@y, e.name
    assert_equal 3, a.remove_instance_variable(:@z)
    assert_equal 1, a.remove_instance_variable(:@x)
    assert_equal [], a.instance_variables
    a.instance_variable_set(:@w, 4)
    assert_equal [:@w], a.instance_variables
  end

  def test_remove_from_a_string_that_never_had_one
    e = assert_raise(NameError) { "s".dup.remove_instance_variable(:@q) }
    assert_equal "instance variable @q not defined", e.message.lines.first.chomp
  end

  def test_frozen_string_raises_frozen_error
    s = "abc".dup.freeze
    e = assert_raise(FrozenError) { s.instance_variable_set(:@x, 1) }
    assert_equal "can't modify frozen String: \"abc\"", e.message
  end

  def test_frozen_array_raises_on_ivar_assignment_in_a_method
    l = L.new([7])
    l.freeze
    e = assert_raise(FrozenError) { l.note = 2 }
    assert_equal "can't modify frozen GenericIvarsTest::L: [7]", e.message
    assert_equal 1, l.meta
  end

  def test_frozen_remove_raises_frozen_error
    a = [1]
    a.instance_variable_set(:@x, 1)
    a.freeze
    e = assert_raise(FrozenError) { a.remove_instance_variable(:@x) }
    assert_equal "can't modify frozen Array: [1]", e.message
    assert_equal 1, a.instance_variable_get(:@x)
  end

  def test_immediates_raise_frozen_error
    e = assert_raise(FrozenError) { 1.instance_variable_set(:@x, 1) }
    assert_equal "can't modify frozen Integer: 1", e.message
    e = assert_raise(FrozenError) { :sym.instance_variable_set(:@x, 1) }
    assert_equal "can't modify frozen Symbol: :sym", e.message
    e = assert_raise(FrozenError) { 1.5.instance_variable_set(:@x, 1) }
    assert_equal "can't modify frozen Float: 1.5", e.message
  end

  def test_ivar_assignment_in_a_method_of_integer_raises_frozen_error
    c = Module.new { def __giv_set = (@giv = 1) }
    Integer.include(c)
    e = assert_raise(FrozenError) { 5.__giv_set }
    assert_equal "can't modify frozen Integer: 5", e.message
  end

  def test_dup_and_clone_copy_them
    s = +"x"
    s.instance_variable_set(:@a, 1)
    s.instance_variable_set(:@b, [2])
    d = s.dup
    c = s.clone
    assert_equal [:@a, :@b], d.instance_variables
    assert_equal [:@a, :@b], c.instance_variables
    assert_same s.instance_variable_get(:@b), d.instance_variable_get(:@b)
    d.instance_variable_set(:@a, 9)
    assert_equal 1, s.instance_variable_get(:@a)
    assert_equal 1, c.instance_variable_get(:@a)
    assert_equal "x", d
  end

  def test_dup_of_an_array_subclass_keeps_its_ivars
    l = L.new([1])
    l.note = "n"
    d = l.dup
    assert_equal L, d.class
    assert_equal 1, d.meta
    assert_equal "n", d.note
    assert_equal [1], d.to_a
  end

  def test_clone_of_a_frozen_string_keeps_ivars_and_frozen
    s = +"f"
    s.instance_variable_set(:@k, :v)
    s.freeze
    c = s.clone
    assert_equal true, c.frozen?
    assert_equal :v, c.instance_variable_get(:@k)
    d = s.dup
    assert_equal false, d.frozen?
    assert_equal :v, d.instance_variable_get(:@k)
  end

  class Copied < Array
    attr_reader :seen
    def initialize_copy(orig)
      super
      @seen = instance_variable_get(:@x)
    end
  end

  def test_initialize_copy_sees_the_copied_ivars
    a = Copied.new
    a.instance_variable_set(:@x, 42)
    assert_equal 42, a.dup.seen
    assert_equal 42, a.clone.seen
  end

  def test_dup_replaces_nothing_on_the_original
    a = [1]
    b = a.dup
    assert_equal [], b.instance_variables
    a.instance_variable_set(:@x, 1)
    assert_equal [], b.instance_variables
  end

  def test_inspect_does_not_show_them
    a = [1, 2]
    a.instance_variable_set(:@x, 1)
    s = +"str"
    s.instance_variable_set(:@y, 2)
    assert_equal "[1, 2]", a.inspect
    assert_equal "\"str\"", s.inspect
    assert_equal "str", s.to_s
  end

  def test_an_ivar_keeps_its_value_alive
    holders = Array.new(50) { |i| a = []; a.instance_variable_set(:@v, "payload-#{i}" * 3); a }
    3.times { GC.start; Array.new(20_000) { |i| "junk#{i}" } }
    holders.each_with_index do |a, i|
      assert_equal "payload-#{i}" * 3, a.instance_variable_get(:@v)
    end
  end

  def test_an_ivar_is_marked_through_a_weakref
    require "weakref"
    a = []
    w = nil
    1.times { o = Object.new; w = WeakRef.new(o); a.instance_variable_set(:@only, o) }
    3.times { GC.start }
    assert_equal true, w.weakref_alive?
    assert_kind_of Object, a.instance_variable_get(:@only)
  end

  def test_a_dead_objects_ivars_do_not_reach_a_new_object
    200.times do
      Array.new(500) { |i| s = +"s"; s.instance_variable_set(:@i, i); s }
    end
    GC.start
    fresh = Array.new(5000) { +"n" }
    assert_equal true, fresh.all? { |s| s.instance_variables.empty? }
    arrays = Array.new(5000) { [] }
    assert_equal true, arrays.all? { |x| !x.instance_variable_defined?(:@i) }
  end

  def test_many_objects_with_ivars_survive_gc
    objs = Array.new(3000) { |i| s = +"o#{i}"; s.instance_variable_set(:@n, i); s.instance_variable_set(:@m, [i]); s }
    GC.start
    objs.each_slice(2) { |a, _| a.remove_instance_variable(:@n) }
    GC.start
    objs.each_with_index do |s, i|
      assert_equal(i.even? ? nil : i, s.instance_variable_get(:@n))
      assert_equal [i], s.instance_variable_get(:@m)
    end
  end

  def test_string_operations_return_strings_without_ivars
    s = S.new("ab")
    s.tag = 1
    assert_equal [], (s + "c").instance_variables
    assert_equal [], s.upcase.instance_variables
    assert_equal "ab", s
  end

  def test_modifying_the_array_keeps_its_ivars
    a = L.new([1, 2, 3])
    100.times { |i| a << i }
    a.replace([9])
    a.concat([8] * 50)
    assert_equal 1, a.meta
    s = +"x"
    s.instance_variable_set(:@q, 1)
    s << "y" * 1000
    s.replace("z")
    s.force_encoding("BINARY")
    assert_equal 1, s.instance_variable_get(:@q)
  end

  def test_marshal_writes_a_strings_ivars_after_its_encoding
    s = +"x"
    s.instance_variable_set(:@t, 1)
    assert_equal "\x04\bI\"\x06x\a:\x06ET:\a@ti\x06".b, Marshal.dump(s)
    b = "x".b
    b.instance_variable_set(:@t, 1)
    assert_equal "\x04\bI\"\x06x\x06:\a@ti\x06".b, Marshal.dump(b)
    assert_equal "\x04\bI\"\x06x\x06:\x06ET".b, Marshal.dump("x")
  end

  def test_marshal_round_trip_of_a_string_subclass_with_ivars
    s = S.new("ab")
    s.tag = [1, "two"]
    t = Marshal.load(Marshal.dump(s))
    assert_equal S, t.class
    assert_equal "ab", t
    assert_equal Encoding::UTF_8, t.encoding
    assert_equal [1, "two"], t.tag
    assert_equal [:@tag], t.instance_variables
  end

  def test_marshal_of_an_array_and_a_hash_with_ivars
    a = [1]
    a.instance_variable_set(:@m, 2)
    assert_equal "\x04\bI[\x06i\x06\x06:\a@mi\a".b, Marshal.dump(a)
    assert_equal 2, Marshal.load(Marshal.dump(a)).instance_variable_get(:@m)
    h = {}
    h.instance_variable_set(:@h, 3)
    assert_equal "\x04\bI{\x00\x06:\a@hi\b".b, Marshal.dump(h)
    assert_equal 3, Marshal.load(Marshal.dump(h)).instance_variable_get(:@h)
  end

  def test_ractor_message_copies_keep_them
    skip "no Ractor" unless defined?(Ractor)
    s = +"msg"
    s.instance_variable_set(:@t, 1)
    r = Ractor.new { x = Ractor.receive; [x.instance_variables, x.instance_variable_get(:@t)] }
    r.send(s)
    assert_equal [[:@t], 1], r.take
  end
end
