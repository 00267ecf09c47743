# CRuby's implicit conversions: a String or Array argument of a core method may be any object
# answering to_str / to_ary (directly, or through method_missing when respond_to_missing? says
# so), and a failing one raises CRuby's TypeError ("no implicit conversion of Foo into String").
# mnrb converts in mruby's common helpers (patches/mruby/0068-implicit-conversion.patch).

class ImplicitConversionTest < MnTest::Case
  class Str
    def initialize(s) = @s = s
    def to_str = @s
  end

  class Ary
    def initialize(a) = @a = a
    def to_ary = @a
  end

  class Ghost
    def method_missing(name, *args)
      case name
      when :to_str then "ghost"
      when :to_ary then [:g]
      else super
      end
    end

    def respond_to_missing?(name, priv = false) = %i[to_str to_ary].include?(name) || super
  end

  class Silent   # method_missing answers but respond_to_missing? does not say so
    def method_missing(name, *args) = name == :to_str ? "silent" : super
    def respond_to_missing?(name, priv = false) = super
  end

  class Asker   # a redefined respond_to? decides, as in CRuby
    def respond_to?(name, priv = false) = name == :to_str || super
    def method_missing(name, *args) = name == :to_str ? "asked" : super
  end

  class Bad
    def to_str = 42
    def to_ary = "no"
  end

  class Plain; end

  class Deep   # a conversion deep enough to grow the VM stack the arguments sit on
    def deep(n) = n == 0 ? 0 : 1 + deep(n - 1)
    def to_str = (deep(3000); "d")
    def to_ary = (deep(3000); [9])
  end

  def test_string_plus_uses_to_str
    assert_equal "ab", "a" + Str.new("b")
    assert_equal "aghost", "a" + Ghost.new
    assert_equal "aasked", "a" + Asker.new
  end

  def test_string_methods_taking_strings_use_to_str
    s = +"x"
    s << Str.new("y")
    assert_equal "xy", s
    s.concat(Str.new("z"))
    assert_equal "xyz", s
    assert_equal true, "abc".include?(Str.new("b"))
    assert_equal true, "abc".start_with?(Str.new("a"))
    assert_equal "q", (+"p").replace(Str.new("q"))
    assert_equal 2, "hello".count(Str.new("l"))
    assert_equal "heo", "hello".delete(Str.new("l"))
    assert_equal "xxx", "x" * 3
  end

  def test_string_without_to_str_raises_crubys_type_error
    e = assert_raise(TypeError) { "a" + Plain.new }
    assert_equal "no implicit conversion of #{Plain} into String", e.message
    e = assert_raise(TypeError) { "a" + nil }
    assert_equal "no implicit conversion of nil into String", e.message
    e = assert_raise(TypeError) { "a" + 1 }
    assert_equal "no implicit conversion of Integer into String", e.message
    e = assert_raise(TypeError) { "a" + Silent.new }
    assert_equal "no implicit conversion of #{Silent} into String", e.message
  end

  def test_to_str_giving_a_non_string_raises
    e = assert_raise(TypeError) { "a" + Bad.new }
    assert_equal "can't convert #{Bad} to String (#{Bad}#to_str gives Integer)", e.message
  end

  def test_array_methods_use_to_ary
    assert_equal [0, 1, 2], [0] + Ary.new([1, 2])
    assert_equal [0, :g], [0] + Ghost.new
    assert_equal [0, 1, 2, 3], [0].concat(Ary.new([1]), [2], Ary.new([3]))
    assert_equal [5], [1, 2].replace(Ary.new([5]))
    assert_equal [[1, :a], [2, :b]], [1, 2].zip(Ary.new([:a, :b]))
    assert_equal [1, 2, 3], [1, 2].push(3)
  end

  def test_array_without_to_ary_raises_crubys_type_error
    e = assert_raise(TypeError) { [0] + Plain.new }
    assert_equal "no implicit conversion of #{Plain} into Array", e.message
    e = assert_raise(TypeError) { [0].concat(1) }
    assert_equal "no implicit conversion of Integer into Array", e.message
    e = assert_raise(TypeError) { [0].replace(nil) }
    assert_equal "no implicit conversion of nil into Array", e.message
    e = assert_raise(TypeError) { [0] + Bad.new }
    assert_equal "can't convert #{Bad} to Array (#{Bad}#to_ary gives String)", e.message
  end

  def test_a_conversion_growing_the_stack_keeps_the_other_arguments
    assert_equal "ad", "a" + Deep.new
    assert_equal [1, 9, 9, 2, 9], [1].concat(Deep.new, Deep.new, [2], Deep.new)
    assert_equal [[1, 9]], [1].zip(Deep.new)
    assert_equal "xbc", "dbc".tr(Deep.new, "x")
    assert_equal "BasicObject", (("a" + BasicObject.new) rescue $!.message[/of (\w+)/, 1])
  end

  def test_concat_leaves_the_receiver_alone_when_a_later_argument_fails
    a = [0]
    assert_raise(TypeError) { a.concat([1], Plain.new) }
    assert_equal [0], a
  end

  def test_many_conversions_survive_the_garbage_collector
    parts = (1..300).map { |i| Str.new("s#{i}") }
    s = parts.inject(+"") { |acc, p| acc + p }
    assert_equal (1..300).map { |i| "s#{i}" }.join, s
    a = (1..300).inject([]) { |acc, i| acc + Ary.new([i]) }
    assert_equal (1..300).to_a, a
  end
end
