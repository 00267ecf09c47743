# Keyword parameters and super as CRuby has them (patches/mruby/0045-kwargs-super-semantics.patch):
# a bare `super` (zsuper) passes the method's keyword parameters with their current values (and
# **rest), in endless and ordinary defs and in blocks of the method; a keyword's default may refer
# to the parameters before it; super and yield inside an endless def's literal compile as in a
# normal def. Every expected value is CRuby 3.1's (this file passes on /usr/bin/ruby too).

class KwSuperBase
  def foo(a, k: 1) = [a, k]
  def req(a:, b: 0) = [a, b]
  def all(*args, **kw, &blk) = [args, kw, blk&.call]
  def bar = :a
  def list(*a) = a
end

class KwSuperChild < KwSuperBase
  def foo(a, k: 2) = super
  def req(a:, b: 9)
    super
  end
  def all(x, k: 1, **rest)
    super
  end

  def reassigned(x, k: 1, **rest)
    k = :changed
    x = :new_x
    rest = { z: 26 }
    super
  end

  def required_and_block(a, k:, &blk)
    super
  end

  def splat_rest(*r, k: 0, **o)
    super
  end

  def post(a, *r, z, k: :k)
    super
  end

  def in_block(a, k: 2)
    [1].map { super }.first
  end

  def in_nested_block(a, k: 2)
    [1].map { |k| [2].map { super }.first }.first
  end

  def nested_block_passes_block(a, k: 1)
    [1].map { [2].map { super }.first }.first
  end

  def rest_names_a_keyword(a, k: 1, **r)
    r = { k: :from_rest, z: 1 }
    super
  end

  def block_given_to_super(a, k: 3)
    super { :given }
  end

  def bar = [:b, super]
  def first_in_array = [super, 1]
  def in_hash = { k: super }
  def as_argument = list(super)
  def bar_paren() = [:p, super]
  def bar_def
    [:d, super]
  end
end

class KwSuperBase
  def reassigned(*a, **kw) = [a, kw]
  def required_and_block(a, k:) = [a, k, yield]
  def splat_rest(*r, **kw) = [r, kw]
  def post(*a, **kw) = [a, kw]
  def in_block(a, k: 0) = [a, k]
  def in_nested_block(a, k: 0) = [a, k]
  def nested_block_passes_block(a, k: 0) = [a, k, block_given? ? yield : :noblk]
  def rest_names_a_keyword(a, k: 0, **r) = [a, k, r]
  def block_given_to_super(a, k: 0) = [a, k, yield]
  def first_in_array = :f
  def in_hash = :h
  def as_argument = :x
  def bar_paren = :q
  def bar_def = :e
end

class KwSuperTest < MnTest::Case
  def test_zsuper_in_endless_def_passes_keywords
    assert_equal [1, 5], KwSuperChild.new.foo(1, k: 5)
    assert_equal [1, 2], KwSuperChild.new.foo(1)
  end

  def test_zsuper_in_def_passes_required_and_optional_keywords
    assert_equal [3, 4], KwSuperChild.new.req(a: 3, b: 4)
    assert_equal [3, 9], KwSuperChild.new.req(a: 3)
  end

  def test_zsuper_passes_keyword_rest_after_the_named_keywords
    args, kw, blk = KwSuperChild.new.all(1, k: 2, z: 3)
    assert_equal [[1], { k: 2, z: 3 }, nil], [args, kw, blk]
    assert_equal [:z, :k], kw.keys   # CRuby: **rest first, then the named keywords
    assert_equal [[1], { k: 1 }, nil], KwSuperChild.new.all(1)
    assert_equal [[1], { k: 1, y: 2 }, :blk], KwSuperChild.new.all(1, y: 2) { :blk }
  end

  def test_zsuper_passes_current_values_after_reassignment
    assert_equal [[:new_x], { k: :changed, z: 26 }], KwSuperChild.new.reassigned(1, k: 2, q: 3)
  end

  def test_zsuper_with_required_keyword_and_block
    assert_equal [1, 2, :yielded], KwSuperChild.new.required_and_block(1, k: 2) { :yielded }
  end

  def test_zsuper_with_splat_and_post_parameters
    assert_equal [[1, 2], { k: 3, o: 4 }], KwSuperChild.new.splat_rest(1, 2, k: 3, o: 4)
    assert_equal [[], { k: 0 }], KwSuperChild.new.splat_rest
    assert_equal [[1, 2, 3], { k: :k }], KwSuperChild.new.post(1, 2, 3)
    assert_equal [[1, 3], { k: 5 }], KwSuperChild.new.post(1, 3, k: 5)
  end

  def test_zsuper_in_a_block_of_the_method
    assert_equal [7, 8], KwSuperChild.new.in_block(7, k: 8)
    assert_equal [7, 2], KwSuperChild.new.in_block(7)
  end

  def test_zsuper_in_a_nested_block_reads_the_methods_parameter_not_a_shadowing_one
    assert_equal [7, 8], KwSuperChild.new.in_nested_block(7, k: 8)
  end

  def test_zsuper_in_nested_blocks_passes_the_methods_block
    assert_equal [1, 2, :blk], KwSuperChild.new.nested_block_passes_block(1, k: 2) { :blk }
    assert_equal [1, 1, :noblk], KwSuperChild.new.nested_block_passes_block(1)
  end

  def test_the_keyword_parameter_wins_over_a_reassigned_rest
    assert_equal [1, 2, { z: 1 }], KwSuperChild.new.rest_names_a_keyword(1, k: 2)
  end

  def test_zsuper_with_its_own_block_keeps_the_keywords
    assert_equal [1, 4, :given], KwSuperChild.new.block_given_to_super(1, k: 4)
  end

  def test_super_inside_an_endless_defs_literal
    o = KwSuperChild.new
    assert_equal [:b, :a], o.bar
    assert_equal [:f, 1], o.first_in_array
    assert_equal({ k: :h }, o.in_hash)
    assert_equal [:x], o.as_argument
    assert_equal [:p, :q], o.bar_paren
    assert_equal [:d, :e], o.bar_def
  end

  def endless_yield = [1, yield]
  def endless_block_given = [block_given?, 2]
  def endless_block_param_free = { v: yield(3) }

  def test_yield_and_block_given_inside_an_endless_def
    assert_equal [1, 2], endless_yield { 2 }
    assert_equal [true, 2], endless_block_given {}
    assert_equal [false, 2], endless_block_given
    assert_equal({ v: 6 }, endless_block_param_free { |x| x * 2 })
  end

  def kw_default_keyword(a:, b: a) = [a, b]
  def kw_default_positional(x, k: x + 1) = [x, k]
  def kw_default_chain(a: 1, b: a * 2, c: b) = [a, b, c]
  def kw_default_expression(a, b: [a, a].sum, c: b.to_s + "!", **r) = [a, b, c, r]
  def kw_default_optional_positional(o = 5, k: o * 10)
    [o, k]
  end

  def test_keyword_default_refers_to_earlier_parameters
    assert_equal [3, 3], kw_default_keyword(a: 3)
    assert_equal [3, 4], kw_default_keyword(a: 3, b: 4)
    assert_equal [1, 2], kw_default_positional(1)
    assert_equal [1, 2, 2], kw_default_chain
    assert_equal [5, 10, 10], kw_default_chain(a: 5)
    assert_equal [5, 0, 0], kw_default_chain(a: 5, b: 0)
    assert_equal [2, 4, "4!", { z: 1 }], kw_default_expression(2, z: 1)
    assert_equal [5, 50], kw_default_optional_positional
    assert_equal [2, 20], kw_default_optional_positional(2)
  end

  def test_keyword_default_in_blocks_and_lambdas
    l = ->(a:, b: a + 1) { [a, b] }
    assert_equal [1, 2], l.call(a: 1)
    pr = proc { |x, k: (x * 3)| [x, k] }
    assert_equal [2, 6], pr.call(2)
  end

  def test_endless_def_without_parentheses_takes_no_arguments
    assert_equal 0, method(:endless_yield).arity
    assert_equal [], method(:endless_yield).parameters
    e = assert_raise(ArgumentError) { endless_block_given(1) }
    assert_equal "wrong number of arguments (given 1, expected 0)", e.message
  end

  def test_missing_required_keyword_still_raises
    e = assert_raise(ArgumentError) { kw_default_keyword }
    assert_equal "missing keyword: :a", e.message
  end
end
