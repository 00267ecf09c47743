# Endless methods and anonymous argument forwarding as CRuby 3.4 has them (mruby 3.3 already
# parses them; mruby patch 0025 only words the setter error as CRuby). `def f(...)`, `(a, ...)`,
# `def f(&)` and endless methods exist in CRuby 3.1 and are checked as written; anonymous `*` and
# `**` arrived in 3.2, so those tests compile their code with eval when RUBY_VERSION is 3.2+ (mnrb
# says "3.3"), and CRuby 3.4's leave to use them inside a block too.

class Syntax34Test < MnTest::Case
  def newer_than_3_1? = RUBY_VERSION >= "3.2"

  def collect(*args, **kw, &blk) = [args, kw, blk&.call]

  def endless = 42
  def endless_arg(x) = x + 1
  def endless_opt(x, y = 2, *r, k: 3, **o) = [x, y, r, k, o]
  def endless_pred? = true
  def endless_bang! = :bang
  def endless_command(x) = collect x, 1
  def self.endless_singleton(x) = x * 2

  class Vec
    attr_reader :v

    def initialize(v) = @v = v
    def +(other) = Vec.new(v + other.v)
    def ==(other) = other.is_a?(Vec) && v == other.v
    def [](i) = v * i
    def -@ = Vec.new(-v)
  end

  def test_endless_methods
    assert_equal 42, endless
    assert_equal 3, endless_arg(2)
    assert_equal [1, 2, [], 3, {}], endless_opt(1)
    assert_equal [1, 5, [6], 7, { z: 8 }], endless_opt(1, 5, 6, k: 7, z: 8)
    assert_equal true, endless_pred?
    assert_equal :bang, endless_bang!
    assert_equal [[:x, 1], {}, nil], endless_command(:x)
    assert_equal 8, Syntax34Test.endless_singleton(4)
  end

  def test_endless_operator_methods
    assert_equal Vec.new(3), Vec.new(1) + Vec.new(2)
    assert_equal 10, Vec.new(5)[2]
    assert_equal(-5, (-Vec.new(5)).v)
  end

  def test_endless_setter_is_a_syntax_error
    e = assert_raise(SyntaxError) { eval("def x=(v) = v") }
    assert_include e.message, "setter method cannot be defined in an endless method definition"
  end

  def test_endless_method_value_is_its_name
    assert_equal :anon_endless, (def anon_endless = 1)
  end

  def fwd_all(...) = collect(...)
  def fwd_lead(a, ...) = collect(a * 10, ...)
  def fwd_block(&) = collect(&)
  def fwd_block_map(&) = [1, 2].map(&)

  def test_argument_forwarding_with_dots
    assert_equal [[1, 2], { k: 3 }, :b], fwd_all(1, 2, k: 3) { :b }
    assert_equal [[], {}, nil], fwd_all
    assert_equal [[10, 2], { k: 3 }, :b], fwd_lead(1, 2, k: 3) { :b }
  end

  def test_anonymous_block_forwarding
    assert_equal [[], {}, :blk], fwd_block { :blk }
    assert_equal [[], {}, nil], fwd_block
    assert_equal [2, 4], fwd_block_map { |x| x * 2 }
  end

  if RUBY_VERSION >= "3.2"
    class_eval <<~'RUBY'
      def anon_rest(*) = collect(*)
      def anon_kwrest(**) = collect(**)
      def anon_all(*, **, &) = collect(*, **, &)
      def anon_lead(a, *) = collect(a, *)
      def anon_rest_array(*) = [0, *]
      def anon_kwrest_hash(**) = { z: 0, ** }
    RUBY
  end
  if RUBY_VERSION >= "3.4" || RUBY_ENGINE != "ruby"
    class_eval <<~'RUBY'
      def anon_rest_in_block(*) = [1].map { collect(*) }
      def anon_kwrest_in_block(**) = [1].map { collect(**) }
    RUBY
  end

  def test_anonymous_rest_and_keyword_rest
    return unless newer_than_3_1?
    assert_equal [[1, 2], {}, nil], anon_rest(1, 2)
    assert_equal [[], { a: 1 }, nil], anon_kwrest(a: 1)
    assert_equal [[1], { a: 2 }, :b], anon_all(1, a: 2) { :b }
    assert_equal [[1, 2, 3], {}, nil], anon_lead(1, 2, 3)
    assert_equal [0, 1, 2], anon_rest_array(1, 2)
    assert_equal({ z: 0, y: 1 }, anon_kwrest_hash(y: 1))
  end

  def test_anonymous_arguments_inside_a_block_since_3_4
    # CRuby 3.3 refused these ("anonymous rest parameter is also used within block"); mnrb is 3.4 here
    return unless RUBY_VERSION >= "3.4" || RUBY_ENGINE != "ruby"
    assert_equal [[[1, 2], {}, nil]], anon_rest_in_block(1, 2)
    assert_equal [[[], { a: 1 }, nil]], anon_kwrest_in_block(a: 1)
  end
end
