# Enumerable#inject and #reduce (mnrb-compat enum_inject.c): CRuby's argument forms, errors, and
# what the block receives. Expected values are CRuby 3.1's and 3.3's; this file passes there too.

class EnumInjectTest < MnTest::Case
  class Pairs
    include Enumerable
    def each
      yield 1, 2
      yield 3
      yield
      self
    end
  end

  class Counter
    include Enumerable
    attr_reader :eaches
    def initialize = @eaches = 0
    def each
      @eaches += 1
      yield 5
      yield 6
    end
  end

  def test_forms
    assert_equal 6, [1, 2, 3].inject(:+)
    assert_equal 16, [1, 2, 3].inject(10, :+)
    assert_equal 6, [1, 2, 3].inject { |a, b| a * b }
    assert_equal 12, [1, 2, 3].inject(2) { |a, b| a * b }
    assert_equal 24, (1..4).reduce(:*)
    assert_equal 3, [1, 2].inject("+")
    assert_equal 3, [1, 2].inject(0, "+")
    assert_equal 3, [3].inject(:+)
  end

  def test_empty
    assert_nil [].inject(:+)
    assert_equal 5, [].inject(5, :+)
    assert_nil [].inject { |a, b| raise "not called" }
    assert_equal :init, [].inject(:init) { |a, b| raise "not called" }
  end

  def test_two_arguments_ignore_the_block
    assert_equal 3, [1, 2].inject(0, :+) { 99 }
  end

  def test_errors
    if RUBY_VERSION >= "3.3"
      e = assert_raise(ArgumentError) { [1, 2].inject }
      assert_equal "wrong number of arguments (given 0, expected 1..2)", e.message
    else
      e = assert_raise(LocalJumpError) { [1, 2].inject }   # CRuby 3.1 and 3.2
      assert_equal "no block given", e.message
    end
    e = assert_raise(TypeError) { [1, 2].inject(1, 2) }
    assert_equal "2 is not a symbol nor a string", e.message
    e = assert_raise(TypeError) { [1, 2].inject(nil, [3]) }
    assert_equal "[3] is not a symbol nor a string", e.message
    e = assert_raise(ArgumentError) { [1, 2].inject(1, 2, 3) }
    assert_equal "wrong number of arguments (given 3, expected 0..2)", e.message
    e = assert_raise(NoMethodError) { [1, 2].inject(:nope) }
    assert_equal :nope, e.name
  end

  def test_what_the_block_receives
    assert_equal 14, [[1, 2], [3, 4]].inject(0) { |s, (a, b)| s + a * b }
    assert_equal [[:a, 1], [:b, 2]], {a: 1, b: 2}.inject([]) { |s, kv| s << kv }
    assert_equal [[1, 2], 3, nil], Pairs.new.inject([]) { |s, x| s << x }
    assert_equal [1, 2], Pairs.new.first(1).first
  end

  def test_each_called_once
    c = Counter.new
    assert_equal 11, c.inject(:+)
    assert_equal 1, c.eaches
  end

  def test_break_and_raise
    assert_equal :b, [1, 2, 3].inject { |a, b| break :b if b == 2; a }
    seen = []
    assert_raise(RuntimeError) { [1, 2, 3].inject(0) { |a, b| seen << b; raise "x" if b == 2; a + b } }
    assert_equal [1, 2], seen
  end

  def test_enumerators
    assert_equal [1, 2, 3], [1, 2, 3].each_slice(2).inject(:+)
    assert_equal 10, [1, 2, 3, 4].each.reduce(:+)
    assert_equal [[3, 0], [1, 1]], [3, 1].each.with_index.inject([]) { |s, pair| s << pair }
  end

  class Reversed < Array
    def each
      (size - 1).downto(0) { |i| yield self[i] }
      self
    end
  end

  def test_an_array_subclass_with_its_own_each
    assert_equal [3, 2, 1], Reversed.new([1, 2, 3]).inject([]) { |s, x| s << x }
    assert_equal 1, Reversed.new([1, 2, 3]).inject { |a, b| b }
  end

  def test_sums_past_64_bits
    assert_equal 2**63, [2**62, 2**62].inject(:+)
    assert_equal 2**64 + 5, [2**63, 2**63, 5].inject(:+)
    assert_equal 1.5 + 2**62, [2**62, 1.5].inject(:+)
    assert_equal "ab", ["a", "b"].inject(:+)
    assert_equal 6r, [1, 2r, 3].inject(:+)
  end

  def test_the_block_changes_the_array
    a = [1, 2, 3]
    assert_equal 10, a.inject { |s, x| a << 4 if x == 3; s + x }
    b = [1, 2, 3, 4]
    assert_equal 3, b.inject { |s, x| b.clear if x == 2; s + x }
  end

  def test_redefined_integer_plus_is_called
    code = "class Integer; def +(o) = 42; end; p [1, 2, 3].inject(:+), [1, 2].inject(0, :+)"
    out = IO.popen([RbConfig.ruby, "-e", code], err: [:child, :out], &:read)
    assert_equal "42\n42\n", out
  end

  def test_sum_of_many
    a = (1..100_000).to_a
    assert_equal 5_000_050_000, a.inject(:+)
    assert_equal 5_000_050_000, a.inject(0) { |s, x| s + x }
  end
end
