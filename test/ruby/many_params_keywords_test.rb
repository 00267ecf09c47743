# A method, lambda or block with 15 or more positional parameters takes keywords as CRuby does.
# mruby passes 15+ arguments packed in an Array, and its frame's argument count is 4 bits: the
# keywords were looked for in a positional's register (given ones ignored, a required one not
# missed). patches/mruby/0076-cruby-compat.patch.

class ManyParamsKeywordsTest < MnTest::Case
  def m15(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, k: 0) = [a1, a15, k]
  def m16(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, k: 0) = [a1, a16, k]
  def m17(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, k: 0, **rest) = [a17, k, rest]
  def req15(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, k:) = [a15, k]
  def opt15(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15 = :d, k: 0) = [a15, k]
  def blk15(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, k: 0, &b) = [a15, k, b.call, yield]

  class Base
    attr_reader :seen
    def initialize(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, k: 0)
      @seen = [a15, k]
    end
  end

  class Child < Base
    def initialize(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, k: 0)
      super
    end
  end

  def args(n) = (1..n).to_a

  def test_fifteen_parameters_take_a_keyword
    assert_equal [1, 15, 9], m15(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, k: 9)
    assert_equal [1, 15, 9], m15(*args(15), k: 9)
    assert_equal [1, 15, 0], m15(*args(15))
    h = {k: 4}
    assert_equal [1, 15, 4], m15(*args(15), **h)
  end

  def test_sixteen_and_more_parameters_take_keywords
    assert_equal [1, 16, 9], m16(*args(16), k: 9)
    assert_equal [17, 9, {z: 1}], m17(*args(17), k: 9, z: 1)
    assert_equal [17, 0, {}], m17(*args(17))
  end

  def test_required_keyword_is_checked
    assert_equal [15, 1], req15(*args(15), k: 1)
    e = assert_raise(ArgumentError) { req15(*args(15)) }
    assert_equal "missing keyword: :k", e.message
  end

  def test_unknown_keyword_is_refused
    e = assert_raise(ArgumentError) { m15(*args(15), nope: 1) }
    assert_equal "unknown keyword: :nope", e.message
  end

  def test_optional_fifteenth_parameter
    assert_equal [:d, 1], opt15(*args(14), k: 1)
    assert_equal [15, 1], opt15(*args(15), k: 1)
  end

  def test_block_parameter_and_yield
    assert_equal [15, 2, :b, :b], blk15(*args(15), k: 2) { :b }
  end

  def test_send_and_method_objects
    assert_equal [1, 15, 3], send(:m15, *args(15), k: 3)
    assert_equal [1, 16, 3], method(:m16).call(*args(16), k: 3)
  end

  def test_lambda_and_proc
    l = ->(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, k: 0) { [a15, k] }
    assert_equal [15, 3], l.call(*args(15), k: 3)
    pr = proc { |a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, k: 0| [a15, k] }
    assert_equal [15, 3], pr.call(*args(15), k: 3)
  end

  def test_initialize_and_zsuper
    assert_equal [15, 5], Base.new(*args(15), k: 5).seen
    assert_equal [15, 6], Child.new(*args(15), k: 6).seen
  end
end
