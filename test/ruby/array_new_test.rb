# Array.new / Array#initialize (mnrb-compat array_new.c): CRuby's argument forms, errors and
# warning, and a block that sees the Array grow. Expected values are CRuby 3.1's and 3.3's; this
# file passes there too.

class ArrayNewTest < MnTest::Case
  class Size
    def initialize(n) = @n = n
    def to_int = @n
  end

  class Elements
    def to_ary = [7, 8]
  end

  class Sub < Array
    def initialize(*args, &block)
      super
      @made = true
    end
    def made? = @made
  end

  def test_forms
    assert_equal [], Array.new
    assert_equal [nil, nil, nil], Array.new(3)
    assert_equal [0, 0, 0], Array.new(3, 0)
    assert_equal [0, 1, 4], Array.new(3) { |i| i * i }
    assert_equal [1, 2], Array.new([1, 2])
    assert_equal [7, 8], Array.new(Elements.new)
    assert_equal [:x, :x], Array.new(Size.new(2), :x)
    assert_equal [nil], Array.new(1.9)
    assert_equal [], Array.new(0, :x)
  end

  def test_default_is_the_same_object
    a = Array.new(3, "s")
    assert_equal 1, a.map(&:object_id).uniq.size
    b = Array.new(3) { "s" }
    assert_equal 3, b.map(&:object_id).uniq.size
  end

  def test_an_array_argument_ignores_the_block
    assert_equal [1, 2], Array.new([1, 2]) { 9 }
  end

  def test_errors
    e = assert_raise(ArgumentError) { Array.new(-1) }
    assert_equal "negative array size", e.message
    e = assert_raise(TypeError) { Array.new("3") }
    assert_equal "no implicit conversion of String into Integer", e.message
    e = assert_raise(TypeError) { Array.new(nil) }
    assert_equal "no implicit conversion from nil to integer", e.message
    e = assert_raise(ArgumentError) { Array.new(2**62) }
    assert_equal "array size too big", e.message
    e = assert_raise(RangeError) { Array.new(2**64) }
    assert(/\Abignum too big to convert into .long'\z/.match?(e.message), e.message)
    e = assert_raise(ArgumentError) { Array.new(1, 2, 3) }
    assert_equal "wrong number of arguments (given 3, expected 0..2)", e.message
  end

  def test_frozen
    e = assert_raise(FrozenError) { [].freeze.send(:initialize, 1) }
    assert_equal "can't modify frozen Array: []", e.message
    assert_raise(FrozenError) { [].freeze.send(:initialize) }
  end

  def test_initialize_again
    a = [1, 2, 3]
    a.send(:initialize)
    assert_equal [], a
    a = [1, 2, 3]
    a.send(:initialize, 2)
    assert_equal [nil, nil], a
    a.send(:initialize, 2) { |i| i + 5 }
    assert_equal [5, 6], a
  end

  def test_block_sees_the_array_grow
    lens = []
    a = nil
    a = Array.new(4) { |i| lens << (a ? a.size : :none); i }
    assert_equal [:none, :none, :none, :none], lens   # `a` is assigned after Array.new returns
    seen = []
    x = []
    x.send(:initialize, 3) { |i| seen << x.dup; i * 10 }
    assert_equal [[], [0], [0, 10]], seen
    assert_equal [0, 10, 20], x
  end

  def test_block_break_and_raise
    assert_equal :out, Array.new(3) { |i| break :out if i == 1; i }
    x = []
    assert_raise(RuntimeError) { x.send(:initialize, 5) { |i| raise "stop" if i == 2; i } }
    assert_equal [0, 1], x
  end

  def test_block_supersedes_default_warns
    out = capture_warning { assert_equal [1, 1], Array.new(2, 0) { 1 } }
    assert(/array_new_test\.rb:\d+: warning: block supersedes default value argument\n\z/.match?(out), out)
  end

  def test_subclass
    s = Sub.new(2, :a)
    assert_equal [:a, :a], s
    assert_equal Sub, s.class
    assert_equal true, s.made?
    assert_equal [0, 1], Sub.new(2) { |i| i }
  end

  def test_large_fill
    a = Array.new(100_000, 7)
    assert_equal 100_000, a.size
    assert_equal 700_000, a.sum
    GC.start
    assert_equal 7, a[99_999]
  end

  private

  def capture_warning
    require "stringio"
    saved = $stderr
    $stderr = StringIO.new
    yield
    $stderr.string
  ensure
    $stderr = saved
  end
end
