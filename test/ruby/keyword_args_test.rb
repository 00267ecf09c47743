# Keyword arguments as CRuby passes them, on every path a call can take: a method whose
# parameters are known takes the pairs straight from the caller's stack (mruby patch 0042), every
# other callee (C methods, method_missing, send, Proc#call, **rest) gets a Hash as before. Each
# test here checks one edge of that split: optional keywords given nil or false, defaults that
# read earlier parameters or run only when the keyword is missing, CRuby's ArgumentError
# messages, a caller's Hash passed with ** left untouched, objects surviving a GC run inside a
# default. Expected values are CRuby 3.1's (this file passes there too).

class KeywordArgsTest < MnTest::Case
  def area(width:, height:, scale: 1) = width * height * scale
  def move(x, y, dx: 0, dy: 0) = [x, y, dx, dy]
  def opt(a, b = :b, c = :c, d:, e: a) = [a, b, c, d, e]
  def flag(v: :default) = v
  def rest(a: 1, **others) = [a, others]
  def many(k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9, k10: 10, k11: 11, k12: 12,
           k13: 13, k14: 14, k15: 15, k16: 16) = [k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16]
  def with_block(a:, &blk) = blk.call(a)
  def yielder(a:) = yield(a)
  def closure(a:, b: 2) = -> { [a, b] }
  def counted(x, a: (@defaults += 1; x), b: x) = [a, b]
  alias aliased_area area

  def test_required_and_optional
    assert_equal 6, area(width: 2, height: 3)
    assert_equal 24, area(height: 3, width: 2, scale: 4)
    assert_equal [1, 2, 0, 3], move(1, 2, dy: 3)
    assert_equal [1, 2, 5, 0], move(1, 2, dx: 5)
    assert_equal [1, 2, 0, 0], move(1, 2)
  end

  def test_optional_positionals_beside_keywords
    assert_equal [1, :b, :c, 4, 1], opt(1, d: 4)
    assert_equal [1, 2, :c, 4, 1], opt(1, 2, d: 4)
    assert_equal [1, 2, 3, 4, 5], opt(1, 2, 3, d: 4, e: 5)
    assert_equal [1, 2, 3, 4, 1], opt(1, 2, 3, d: 4)
  end

  def test_optional_keyword_given_nil_or_false_is_not_its_default
    assert_nil flag(v: nil)
    assert_equal false, flag(v: false)
    assert_equal :default, flag
    assert_equal 0, area(width: 0, height: 5)
  end

  def test_default_runs_only_when_the_keyword_is_missing_and_sees_earlier_parameters
    @defaults = 0
    assert_equal [:x, :p], counted(:p, a: :x)
    assert_equal 0, @defaults
    assert_equal [:p, :p], counted(:p)
    assert_equal 1, @defaults
    assert_equal [:x, :y], counted(:p, b: :y, a: :x)
    assert_equal 1, @defaults
  end

  def test_missing_and_unknown_keyword_messages
    e = assert_raise(ArgumentError) { area(width: 1) }
    assert_equal "missing keyword: :height", e.message
    e = assert_raise(ArgumentError) { area(width: 1, height: 2, depth: 3) }
    assert_equal "unknown keyword: :depth", e.message
    e = assert_raise(ArgumentError) { flag(w: 1) }
    assert_equal "unknown keyword: :w", e.message
    e = assert_raise(ArgumentError) { flag(w: 1, "s" => 2) }
    assert_equal 'unknown keywords: :w, "s"', e.message
    e = assert_raise(ArgumentError) { flag(v: 1, w: 1) }
    assert_equal "unknown keyword: :w", e.message
    assert_raise(ArgumentError) { move(1, dy: 3) }
    assert_raise(ArgumentError) { move(1, 2, 3, dy: 3) }
  end

  def test_keywords_are_not_positionals
    assert_raise(ArgumentError) { area({ width: 1, height: 2 }) }
    assert_equal [{ a: 1 }, 2, 3, 4, { a: 1 }], opt({ a: 1 }, 2, 3, d: 4)
  end

  def test_double_splat_leaves_the_callers_hash_alone
    h = { width: 2, height: 5 }
    assert_equal 10, area(**h)
    assert_equal({ width: 2, height: 5 }, h)
    assert_equal 30, area(**h, scale: 3)
    assert_equal({ width: 2, height: 5 }, h)
    opts = { v: :given }
    assert_equal :given, flag(**opts)
    assert_equal({ v: :given }, opts)
  end

  def test_rest_keywords_collect_the_others
    assert_equal [1, {}], rest
    assert_equal [2, { b: 3, c: 4 }], rest(a: 2, b: 3, c: 4)
    h = { b: 1 }
    a, others = rest(**h)
    others[:z] = 9
    assert_equal({ b: 1 }, h)
  end

  def test_more_keywords_than_fit_in_one_call_operand
    assert_equal (1..16).to_a, many
    all = (1..16).to_h { |i| [:"k#{i}", i * 10] }
    assert_equal (1..16).map { |i| i * 10 }, many(**all)
    assert_equal [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 160],
                 many(k16: 160)
    assert_equal [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 16],
                 many(k1: 10, k2: 20, k3: 30, k4: 40, k5: 50, k6: 60, k7: 70, k8: 80, k9: 90,
                      k10: 100, k11: 110, k12: 120, k13: 130, k14: 140, k15: 150)
  end

  def test_through_send_method_objects_aliases_and_define_method
    assert_equal 6, send(:area, width: 2, height: 3)
    assert_equal 6, public_send(:area, width: 2, height: 3)
    assert_equal 6, method(:area).call(width: 2, height: 3)
    assert_equal 8, aliased_area(width: 2, height: 4)
    self.class.define_method(:dm) { |a:, b: 2| [a, b] }
    assert_equal [1, 2], dm(a: 1)
    assert_equal [1, 5], dm(b: 5, a: 1)
    e = assert_raise(ArgumentError) { dm(b: 5) }
    assert_equal "missing keyword: :a", e.message
  end

  def test_blocks_procs_and_lambdas_take_keywords
    assert_equal 7, with_block(a: 7) { |x| x }
    assert_equal 8, yielder(a: 4) { |x| x * 2 }
    l = ->(a:, b: 2) { [a, b] }
    assert_equal [1, 2], l.call(a: 1)
    assert_equal [1, 3], l.(a: 1, b: 3)
    pr = proc { |a: 0, **r| [a, r] }
    assert_equal [1, { z: 2 }], pr.call(a: 1, z: 2)
    def self.pass_kw = yield(k: 5)
    assert_equal 5, pass_kw { |k:| k }
  end

  def test_closures_over_keyword_parameters
    c = closure(a: :one)
    d = closure(a: :two, b: :three)
    assert_equal [:one, 2], c.call
    assert_equal [:two, :three], d.call
  end

  def test_method_missing_and_c_methods_get_a_hash
    o = Object.new
    def o.method_missing(name, *args, **kw) = [name, args, kw]
    def o.respond_to_missing?(*) = true
    assert_equal [:foo, [1], { a: 2 }], o.foo(1, a: 2)
    s = Struct.new(:a, :b, keyword_init: true)
    v = s.new(a: 1, b: 2)
    assert_equal [1, 2], [v.a, v.b]
  end

  def test_super_with_keywords
    base = Class.new { def m(a:, b: 2) = [a, b] }
    sub = Class.new(base) { def m(a:, b: 3) = super(a: a * 10, b: b) }
    assert_equal [10, 3], sub.new.m(a: 1)
    assert_equal [10, 7], sub.new.m(a: 1, b: 7)
  end

  def test_values_survive_a_gc_inside_a_default
    def self.gc_default(x, a:, b: (GC.start; [x, "y" * 2]), c: "z") = [a, b, c]
    assert_equal ["xxx", ["p", "yy"], "z"], gc_default("p", a: "x" * 3)
    10.times do |i|
      r = gc_default("p", c: "c#{i}" * 2, a: "s#{i}")
      assert_equal ["s#{i}", ["p", "yy"], "c#{i}c#{i}"], r
    end
  end

  def test_forwarding_positionals_with_a_trailing_hash
    def self.inner(a, h = nil) = [a, h]
    def self.outer(*args) = inner(*args)
    assert_equal [1, { k: 2 }], outer(1, { k: 2 })
  end
end
