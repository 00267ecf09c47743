# Keyword arguments through every way a call is made (patches/mruby/0062-kwargs-literal-defaults.patch:
# a keyword parameter whose default is a literal -- an Integer, nil, true, false, a Symbol -- gets
# it when the method is entered, and the rest of the keyword prologue runs only from the first
# default that is code, if any). Literal and code defaults mixed in every order, locals after the
# keywords, optional positionals, **splats, method_missing, send, super and zsuper, blocks, procs
# and lambdas, define_method, C methods taking keywords, delegation through (*args, **kw, &blk),
# Thread.new, Ractor.new, Fiber and Enumerator. Every expected value is CRuby 3.1's (this file
# passes on /usr/bin/ruby), except where 3.2 changed it (checked by RUBY_VERSION; mnrb's is 3.3).
# Keywords given to Thread.new for its block: test/ruby/thread_new_keywords_test.rb.

class KwCallsBase
  def lits(a: nil, b: true, c: false, d: :sym, e: -3, f: 300, g: -1, h: 7, i: 0, j: 255, k: -255,
           l: 32767, m: -32768)
    [a, b, c, d, e, f, g, h, i, j, k, l, m]
  end
  def big(k: 70000, j: -70000, f: 1.5, s: "str", r: 1..2, a: [1]) = [k, j, f, s, r, a]
  # a code default between literal ones; code defaults see the keywords before them
  def mixed(a: 1, b: a + 10, c: 3, d: [a, b, c], e: :e) = [a, b, c, d, e]
  def code_first(a: [0].first, b: 2, c: b * 2) = [a, b, c]
  def locals(k: 1, j: 2)
    x = 10 if false
    y ||= :fresh
    [k, j, x, y]
  end
  def fill(a, b, c, d, e, f) = a
  def opt(a, b = a * 2, k: 1, j: :j) = [a, b, k, j]
  def req_and_lit(a:, b: 2) = [a, b]
  def fresh(s: "s", a: []) = [s, a]
  def super_target(x, k: 1, j: 2) = [:base, x, k, j]
  def zsuper_target(x, k: 0, j: 0) = [:base, x, k, j]
end

class KwCallsChild < KwCallsBase
  def super_target(x, k: 5, j: 6) = super(x, j: j + 1) + [k]
  def zsuper_target(x, k: 7, j: 8)
    j += 1
    super
  end
end

class KwCallsGhost
  def method_missing(name, *args, **kw, &blk)
    return super unless name.to_s.start_with?("ghost")
    [name, args, kw, blk ? blk.call : nil]
  end
  def respond_to_missing?(name, priv = false) = name.to_s.start_with?("ghost") || super
end

class KwCallsOldGhost
  def method_missing(name, *args) = [name, args]
  def respond_to_missing?(name, priv = false) = true
end

class KwCallsTarget
  def call(a, b = 2, *rest, k: 0, j: :j, **kw, &blk) = [a, b, rest, k, j, kw, blk&.call]
  def plain(*args) = args
  def only_kw(k: 1) = k
end

class KwCallsDelegator
  def initialize(t) = @t = t
  def call(*args, **kw, &blk) = @t.call(*args, **kw, &blk)
  def plain(*args, **kw, &blk) = @t.plain(*args, **kw, &blk)
  def only_kw(*args, **kw) = @t.only_kw(*args, **kw)
end

class KwCallsEach
  include Enumerable
  def each(from: 0, step: 1)
    return to_enum(:each, from: from, step: step) unless block_given?
    3.times { |i| yield from + i * step }
  end
end

def kw_calls_top(w:, h: 2, d: :top) = [w, h, d]

class KeywordCallsTest < MnTest::Case
  def setup
    @o = KwCallsBase.new
  end

  def test_literal_defaults_of_every_kind
    assert_equal [nil, true, false, :sym, -3, 300, -1, 7, 0, 255, -255, 32767, -32768], @o.lits
    assert_equal [1, false, nil, :x, 5, 6, 7, 8, 9, 10, 11, 12, 13],
                 @o.lits(m: 13, l: 12, k: 11, j: 10, i: 9, h: 8, g: 7, f: 6, e: 5, d: :x, c: nil, b: false, a: 1)
    assert_equal [nil, true, false, :given, -3, 300, -1, 7, 0, 255, -255, 32767, -32768], @o.lits(d: :given)
    assert_equal [70000, -70000, 1.5, "str", 1..2, [1]], @o.big
    assert_equal [1, 2, 3.5, "t", nil, [2]], @o.big(a: [2], k: 1, j: 2, f: 3.5, s: "t", r: nil)
  end

  def test_a_keyword_given_nil_or_false_keeps_that_value
    assert_equal [nil, nil, nil, :sym], @o.lits(a: nil, b: nil, c: nil)[0, 4]
    assert_equal [false, false, false], @o.lits(a: false, b: false, c: false)[0, 3]
    assert_equal [nil, 2], @o.req_and_lit(a: nil)
    assert_equal [false, nil], @o.req_and_lit(b: nil, a: false)
  end

  def test_code_defaults_between_literal_ones
    assert_equal [1, 11, 3, [1, 11, 3], :e], @o.mixed
    assert_equal [5, 15, 3, [5, 15, 3], :e], @o.mixed(a: 5)
    assert_equal [1, 0, 3, [1, 0, 3], :x], @o.mixed(b: 0, e: :x)
    assert_equal [1, 11, 9, [1, 11, 9], :e], @o.mixed(c: 9)
    assert_equal [2, 12, 4, :d, :e], @o.mixed(d: :d, c: 4, a: 2)
    assert_equal [0, 2, 4], @o.code_first
    assert_equal [0, 3, 6], @o.code_first(b: 3)
    assert_equal [1, 3, 6], @o.code_first(b: 3, a: 1)
    assert_equal [1, 2, 0], @o.code_first(a: 1, c: 0)
  end

  def test_locals_after_the_keywords_start_nil
    @o.fill(:a, :b, :c, :d, :e, :f)
    assert_equal [1, 2, nil, :fresh], @o.locals
    @o.fill(:a, :b, :c, :d, :e, :f)
    assert_equal [3, 2, nil, :fresh], @o.locals(k: 3)
    @o.fill(:a, :b, :c, :d, :e, :f)
    assert_equal [1, 4, nil, :fresh], @o.locals(j: 4)
  end

  def test_optional_positionals_beside_literal_keyword_defaults
    assert_equal [1, 2, 1, :j], @o.opt(1)
    assert_equal [1, 5, 1, :j], @o.opt(1, 5)
    assert_equal [1, 2, 3, :j], @o.opt(1, k: 3)
    assert_equal [1, 5, 1, :x], @o.opt(1, 5, j: :x)
    assert_equal [{ z: 1 }, 0, 1, :j], @o.opt({ z: 1 }, 0)
  end

  def test_string_and_array_defaults_are_new_objects_each_call
    a = @o.fresh
    b = @o.fresh
    refute a[0].equal?(b[0])
    refute a[1].equal?(b[1])
    a[0] << "!"
    a[1] << 1
    assert_equal ["s", []], @o.fresh
  end

  def test_missing_and_unknown_keywords_raise_as_in_cruby
    e = assert_raise(ArgumentError) { @o.req_and_lit }
    assert_equal "missing keyword: :a", e.message
    e = assert_raise(ArgumentError) { @o.req_and_lit(b: 1) }
    assert_equal "missing keyword: :a", e.message
    e = assert_raise(ArgumentError) { @o.req_and_lit(a: 1, z: 2) }
    assert_equal "unknown keyword: :z", e.message
    e = assert_raise(ArgumentError) { @o.lits(zz: 1) }
    assert_equal "unknown keyword: :zz", e.message
    e = assert_raise(ArgumentError) { @o.opt }
    assert_equal "wrong number of arguments (given 0, expected 1..2)", e.message
    e = assert_raise(ArgumentError) { @o.opt(1, 2, 3) }
    assert_equal "wrong number of arguments (given 3, expected 1..2)", e.message
  end

  def test_double_splats
    h = { k: 3 }
    assert_equal [1, 2, 3, :j], @o.opt(1, **h)
    assert_equal [1, 2, 3, :x], @o.opt(1, **h, j: :x)
    assert_equal [1, 2, 3, :x], @o.opt(1, j: :x, **h)
    assert_equal [1, 2, 1, :j], @o.opt(1, **{})
    assert_equal({ k: 3 }, h)
    assert_equal [9, 2], @o.req_and_lit(**{ a: 9 })
    e = assert_raise(ArgumentError) { @o.req_and_lit(**{ a: 9, q: 1 }) }
    assert_equal "unknown keyword: :q", e.message
    assert_equal [[1, { k: 2 }]], [KwCallsTarget.new.plain(1, **{ k: 2 })]
    assert_equal [1], KwCallsTarget.new.plain(1, **{})
  end

  def test_send_public_send_and_method_objects
    assert_equal [4, 2, :top], send(:kw_calls_top, w: 4)
    assert_equal [1, 2, 3, :j], @o.public_send(:opt, 1, k: 3)
    assert_equal [1, 2, 3, :j], @o.send(:opt, 1, **{ k: 3 })
    assert_equal [1, 5, 1, :q], @o.method(:opt).call(1, 5, j: :q)
    assert_equal [1, 2, 1, :j], @o.method(:opt).to_proc.call(1)
    assert_equal [7, 2], @o.method(:req_and_lit).unbind.bind(KwCallsBase.new).call(a: 7)
  end

  def test_method_missing_gets_keywords_as_keywords
    g = KwCallsGhost.new
    assert_equal [:ghost, [1], { k: 2 }, nil], g.ghost(1, k: 2)
    assert_equal [:ghost_b, [], { k: 2, j: 3 }, :blk], g.ghost_b(k: 2, **{ j: 3 }) { :blk }
    assert_equal [:ghost, [1], {}, nil], g.ghost(1, **{})
    assert_equal [:ghost_s, [1], { k: 2 }, nil], g.send(:ghost_s, 1, k: 2)
    assert_equal [:ghost_p, [], { k: 2 }, nil], g.public_send(:ghost_p, k: 2)
    assert_equal [:ghost_s, [1], { k: 2 }, nil], g.send("ghost_s", 1, k: 2)
    assert_equal [:ghost_s, [1, 2], { k: 3 }, :b], g.send(*[:ghost_s, 1, 2], **{ k: 3 }) { :b }
    assert_equal [:ghost_s, [1], {}, nil], g.send(:ghost_s, 1)
    e = assert_raise(NoMethodError) { Object.new.send(:kw_calls_nothing, k: 1) }
    assert_equal :kw_calls_nothing, e.name
    assert_raise(NoMethodError) { g.other(k: 1) }
    assert_equal [:anything, [1, { k: 2 }]], KwCallsOldGhost.new.anything(1, k: 2)
  end

  def test_super_and_zsuper_with_keywords
    c = KwCallsChild.new
    assert_equal [:base, 1, 1, 7, 5], c.super_target(1)
    assert_equal [:base, 1, 1, 3, 9], c.super_target(1, k: 9, j: 2)
    assert_equal [:base, 1, 7, 9], c.zsuper_target(1)
    assert_equal [:base, 1, 0, 1], c.zsuper_target(1, k: 0, j: 0)
  end

  def test_blocks_procs_lambdas_and_define_method
    # a block with one positional parameter and keywords does not auto-splat since CRuby 3.2
    assert_equal RUBY_VERSION >= "3.2" ? [[1], :d] : [1, :d], [[1]].map { |a, k: :d| [a, k] }.first
    pr = proc { |a, k: 1, j: :j| [a, k, j] }
    assert_equal [nil, 1, :j], pr.call
    assert_equal [2, 3, :j], pr.call(2, k: 3)
    assert_equal [2, 1, :x], pr.(2, j: :x)
    la = ->(a, k: 1, j: nil) { [a, k, j] }
    assert_equal [1, 1, nil], la.call(1)
    assert_equal [1, 2, false], la[1, k: 2, j: false]
    e = assert_raise(ArgumentError) { la.call(1, q: 2) }
    assert_equal "unknown keyword: :q", e.message
    y = ->(&b) { b.call(5, k: 6) }
    assert_equal [5, 6, :j], y.call(&pr)
    def_class = Class.new { define_method(:dm) { |a, k: 1, j: :d| [a, k, j] } }
    assert_equal [1, 1, :d], def_class.new.dm(1)
    assert_equal [1, 3, :d], def_class.new.dm(1, k: 3)
    assert_equal [1, 3, :e], def_class.new.send(:dm, 1, j: :e, k: 3)
    yielder = Class.new { def run = yield(1, k: 2) }
    assert_equal [1, 2, :j], yielder.new.run(&pr)
  end

  def test_c_methods_take_keywords
    s = "abc".freeze
    assert_equal false, s.clone(freeze: false).frozen?
    assert_equal true, s.clone(freeze: true).frozen?
    assert_equal false, s.clone(**{ freeze: false }).frozen?
    assert_equal false, s.send(:clone, freeze: false).frozen?
    assert_equal false, s.method(:clone).call(freeze: false).frozen?
    e = assert_raise(ArgumentError) { s.clone(frozen: false) }
    assert_equal "unknown keyword: :frozen", e.message
    e = assert_raise(ArgumentError) { s.clone(a: 1, b: 2) }
    assert_equal "unknown keywords: :a, :b", e.message
    assert_nil Integer("zz", exception: false)
    assert_equal 12, Integer("12", exception: false)
  end

  def test_delegation_through_rest_keywords_and_block
    d = KwCallsDelegator.new(KwCallsTarget.new)
    assert_equal [1, 2, [], 0, :j, {}, nil], d.call(1)
    assert_equal [1, 5, [6], 3, :j, { z: 1 }, :b], d.call(1, 5, 6, z: 1, k: 3) { :b }
    assert_equal [1, 2, [], 0, :x, {}, nil], d.call(1, **{ j: :x })
    assert_equal [1, { k: 2 }], d.plain(1, k: 2)
    assert_equal [1], d.plain(1)
    assert_equal 4, d.only_kw(k: 4)
    assert_equal 1, d.only_kw
    e = assert_raise(ArgumentError) { d.only_kw(q: 4) }
    assert_equal "unknown keyword: :q", e.message
  end

  def test_keywords_into_thread_new_and_ractor_new
    t = Thread.new(1) { |a, k: 0, j: :j| [a, k, j, KwCallsBase.new.opt(a, k: 4)] }
    assert_equal [1, 0, :j, [1, 2, 4, :j]], t.value
    r = Ractor.new(3, name: "kw") do |a|
      o = KwCallsBase.new
      [a, Ractor.current.name, o.opt(a), o.opt(a, j: :r), o.mixed(c: 0), o.lits(d: :q)[3],
       kw_calls_top(w: a), o.lits.last(3)]
    end
    assert_equal [3, "kw", [3, 6, 1, :j], [3, 6, 1, :r], [1, 11, 0, [1, 11, 0], :e], :q,
                  [3, 2, :top], [-255, 32767, -32768]], r.take
  end

  def test_fibers_and_enumerators
    f = Fiber.new { |a, k: 1, j: :j| Fiber.yield([a, k, j]); :done }
    assert_equal [0, 2, :j], f.resume(0, k: 2)
    assert_equal :done, f.resume
    assert_equal [1, { k: 2 }], Fiber.new { |a, b| [a, b] }.resume(1, k: 2)
    assert_equal [[1], {}], Fiber.new { |*a, **kw| [a, kw] }.resume(1, **{})
    assert_equal [[1], { k: 2 }], Fiber.new { |*a, **kw| [a, kw] }.resume(1, k: 2)
    assert_equal({ k: 1 }, Fiber.new { |h| h }.resume({ k: 1 }))
    f = Fiber.new { |k: 0| Fiber.yield(k) }
    assert_equal 5, f.resume(k: 5)
    assert_equal({ z: 1 }, f.resume(z: 1))
    e = assert_raise(ArgumentError) { Fiber.new { |k:| k }.resume }
    assert_equal "missing keyword: :k", e.message
    e = KwCallsEach.new
    assert_equal [0, 1, 2], e.each.to_a
    assert_equal [5, 7, 9], e.each(from: 5, step: 2).to_a
    assert_equal [10, 11, 12], e.to_enum(:each, from: 10).to_a
    assert_equal [1, 2], e.enum_for(:each, from: 1).first(2)
    assert_equal [0, 1, 2], e.to_enum(:each, **{}).to_a
    en = e.each(step: 3)
    assert_equal 0, en.next
    assert_equal 3, en.next
    assert_equal [[0, 0], [1, 1], [2, 2]], e.each_with_index.to_a
  end

  def test_many_calls_stay_correct
    sum = 0
    2000.times do |i|
      sum += @o.opt(i)[3] == :j ? 1 : 0
      sum += @o.mixed(a: i)[1] == i + 10 ? 1 : 0
      sum += kw_calls_top(w: i, d: nil)[2].nil? ? 1 : 0
      GC.start if i % 500 == 0
    end
    assert_equal 6000, sum
  end
end
