# Data (CRuby 3.2+) as CRuby 3.3 documents it: Data.define, `new` with positional or keyword
# arguments, CRuby's ArgumentError messages, #with, #to_h, equality and hashing, #inspect, frozen
# instances, classes with methods, #deconstruct and #deconstruct_keys (pattern matching itself is
# not in mnrb yet). CRuby 3.1 has no Data: there every test skips, so the expectations come from
# CRuby 3.3's documentation and its behaviour, not from a run of this file on CRuby.

DATA_DEFINED = Object.const_defined?(:Data) && Data.respond_to?(:define)

if DATA_DEFINED
  Point = Data.define(:x, :y)
  Empty = Data.define
  Doubler = Data.define(:x) do
    def double = x * 2
  end

  class Vector < Data.define(:dx, :dy)
    def length2 = dx * dx + dy * dy
  end

  # initialize with a default: new passes keywords only, so y may be left out.
  Defaulted = Data.define(:x, :y) do
    def initialize(x:, y: 0) = super(x: x, y: y)
  end
end

class DataTest < MnTest::Case
  def setup
    skip "Data is CRuby 3.2+" unless DATA_DEFINED
  end

  def test_new_takes_positional_or_keyword_arguments
    assert_equal 1, Point.new(1, 2).x
    assert_equal 2, Point.new(x: 1, y: 2).y
    assert_equal Point.new(1, 2), Point[1, 2]
    assert_equal Point.new(1, 2), Point[x: 1, y: 2]
    assert_equal Point.new(1, 2), Point.new("x" => 1, "y" => 2)
  end

  def test_missing_arguments_are_missing_keywords
    e = assert_raise(ArgumentError) { Point.new(1) }
    assert_equal "missing keyword: :y", e.message
    e = assert_raise(ArgumentError) { Point.new(x: 1) }
    assert_equal "missing keyword: :y", e.message
    e = assert_raise(ArgumentError) { Point.new }
    assert_equal "missing keywords: :x, :y", e.message
  end

  def test_too_many_positional_arguments
    e = assert_raise(ArgumentError) { Point.new(1, 2, 3) }
    assert_equal "wrong number of arguments (given 3, expected 0..2)", e.message
    e = assert_raise(ArgumentError) { Empty.new(1) }
    assert_equal "wrong number of arguments (given 1, expected 0)", e.message
  end

  def test_unknown_keywords
    e = assert_raise(ArgumentError) { Point.new(x: 1, y: 2, z: 3) }
    assert_equal "unknown keyword: :z", e.message
    e = assert_raise(ArgumentError) { Point.new(x: 1, y: 2, z: 3, w: 4) }
    assert_equal "unknown keywords: :z, :w", e.message
  end

  def test_positional_and_keyword_arguments_together
    e = assert_raise(ArgumentError) { Point.new(1, y: 2) }
    assert_equal "wrong number of arguments (given 2, expected 0)", e.message
  end

  def test_with_copies_with_changes
    p1 = Point.new(1, 2)
    assert_equal Point.new(1, 5), p1.with(y: 5)
    assert_same p1, p1.with
    e = assert_raise(ArgumentError) { p1.with(1) }
    assert_equal "wrong number of arguments (given 1, expected 0)", e.message
    e = assert_raise(ArgumentError) { p1.with(z: 1) }
    assert_equal "unknown keyword: :z", e.message
  end

  def test_to_h_with_and_without_a_block
    assert_equal({ x: 1, y: 2 }, Point.new(1, 2).to_h)
    assert_equal({ "x" => 10, "y" => 20 }, Point.new(1, 2).to_h { |k, v| [k.to_s, v * 10] })
    assert_equal({}, Empty.new.to_h)
  end

  def test_members
    assert_equal [:x, :y], Point.members
    assert_equal [:x, :y], Point.new(1, 2).members
    assert_equal [], Empty.members
    assert_equal [:a], Data.define("a").members
  end

  def test_equality_eql_and_hash
    assert Point.new(1, 2) == Point.new(1, 2)
    assert Point.new(1, 2) == Point.new(1.0, 2)
    refute Point.new(1, 2).eql?(Point.new(1.0, 2))
    assert Point.new(1, 2).eql?(Point.new(1, 2))
    refute Data.define(:x).new(1) == Data.define(:x).new(1)
    assert_equal Point.new(1, [2]).hash, Point.new(1, [2]).hash
    assert_equal :found, { Point.new(1, 2) => :found }[Point.new(1, 2)]
  end

  def test_inspect
    assert_equal "#<data Point x=1, y=\"a\">", Point.new(1, "a").inspect
    assert_equal "#<data Point x=1, y=\"a\">", Point.new(1, "a").to_s
    assert_equal "#<data a=1>", Data.define(:a).new(1).inspect
    assert_equal "#<data Empty>", Empty.new.inspect
    assert_equal "#<data Vector dx=1, dy=2>", Vector.new(1, 2).inspect
  end

  def test_inspect_of_a_recursive_value
    d = Point.new([], 0)
    d.x << d
    assert_equal "#<data Point x=[#<data Point:...>], y=0>", d.inspect
  end

  def test_instances_are_frozen
    d = Point.new(1, 2)
    assert d.frozen?
    refute d.respond_to?(:x=)
    assert_raise(FrozenError) { d.send(:initialize, x: 3, y: 4) }
    assert d.dup.frozen?
    assert_equal d, d.dup
  end

  def test_classes_with_methods
    assert_equal 8, Doubler.new(4).double
    assert_equal 25, Vector.new(3, 4).length2
    assert_equal Data, Vector.superclass.superclass
  end

  def test_initialize_redefined_with_a_default
    assert_equal Defaulted.new(1, 0), Defaulted.new(x: 1)
    assert_equal 5, Defaulted.new(1, 5).y
  end

  def test_deconstruct
    assert_equal [1, 2], Point.new(1, 2).deconstruct
  end

  def test_deconstruct_keys
    d = Point.new(1, 2)
    assert_equal({ x: 1, y: 2 }, d.deconstruct_keys(nil))
    assert_equal({ y: 2 }, d.deconstruct_keys([:y]))
    assert_equal({ x: 1 }, d.deconstruct_keys([:x, :z]))
    assert_equal({}, d.deconstruct_keys([:x, :y, :z]))
    e = assert_raise(TypeError) { d.deconstruct_keys(1) }
    assert_equal "wrong argument type Integer (expected Array or nil)", e.message
  end

  def test_define_checks_member_names
    e = assert_raise(ArgumentError) { Data.define(:x, :x) }
    assert_equal "duplicate member: x", e.message
    e = assert_raise(ArgumentError) { Data.define(:"x=") }
    assert_equal "invalid data member: x=", e.message
  end

  def test_data_itself_has_no_new
    assert_raise(NoMethodError) { Data.new }
  end
end
