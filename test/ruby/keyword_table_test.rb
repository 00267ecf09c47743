# Keyword parameters through every way a method is reached (patches/mruby/0058-kwargs-table.patch:
# a method taking keywords carries a table of its keywords, made by the compiler, derived again
# when bytecode is loaded -- a Ractor's copy of a method, eval -- and read at each call instead of
# the prologue's instructions). Defaults referring to earlier parameters, **rest, **nil, CRuby's
# messages for missing and unknown keywords, send/public_send/method_missing/super/define_method,
# blocks and lambdas, a Ractor, eval. Every expected value is CRuby 3.1's (passes on /usr/bin/ruby).
# Not here: `**nil` (mnrb's parser does not accept it yet).

class KwTabBase
  def area(width:, height:, scale: 1) = width * height * scale
  def move(x, y, dx: 0, dy: 0) = [x + dx, y + dy]
  def chain(a, b = a + 1, k: b * 2, j: k + a) = [a, b, k, j]
  def later(k1: 1, k2: k1 + 1, k3: k2 + k1) = [k1, k2, k3]
  def rest(a, k: 1, **o) = [a, k, o]
  def with_block(k: 1, &blk) = blk.call(k)
  def opt_then_key(a = :da, k: :dk) = [a, k]
  def many(k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9, k10: 10,
           k11: 11, k12: 12, k13: 13, k14: 14, k15: 15, k16: 16)
    [k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16].sum
  end

  # a default long enough that its code starts far (past 255 bytes) from the method's start
  def far(a: 1, b: [a, a + 1, a + 2, a + 3, a + 4, a + 5, a + 6, a + 7, a + 8, a + 9, a + 10,
                    a + 11, a + 12, a + 13, a + 14, a + 15, a + 16, a + 17, a + 18, a + 19].sum,
          c: [b, b * 2, b * 3, b * 4, b * 5, b * 6, b * 7, b * 8, b * 9, b * 10, b * 11,
              b * 12, b * 13, b * 14, b * 15, b * 16, b * 17, b * 18, b * 19, b * 20].sum,
          d:)
    [a, b, c, d]
  end

  def sup(a, k: 1) = [:base, a, k]
  def zsup(a, k: 1, j: 2) = [:base, a, k, j]
end

class KwTabChild < KwTabBase
  def sup(a, k: 5) = super(a, k: k * 10)
  def zsup(a, k: 7, j: 8)
    k += 1
    super
  end
end

class KwTabGhost
  def method_missing(name, *args, **kw)
    name.to_s.start_with?("kw_") ? [name, args, kw] : super
  end

  def respond_to_missing?(name, priv = false) = name.to_s.start_with?("kw_") || super
end

class KwTabDefined
  define_method(:dm) { |a, k: 1, j:| [a, k, j] }
  define_method(:dl, &lambda { |k: :l| k })
end

def kw_tab_top(width:, height: 2, depth: width + height) = [width, height, depth]

class KeywordTableTest < MnTest::Case
  def o = KwTabBase.new

  def test_required_and_optional
    assert_equal 6, o.area(width: 2, height: 3)
    assert_equal 24, o.area(width: 2, height: 3, scale: 4)
    assert_equal 24, o.area(scale: 4, height: 3, width: 2)
    assert_equal [3, 5], o.move(1, 2, dx: 2, dy: 3)
    assert_equal [1, 5], o.move(1, 2, dy: 3)
    assert_equal [2, 2], o.move(1, 2, dx: 1)
    assert_equal [1, 2], o.move(1, 2)
  end

  def test_defaults_refer_to_earlier_parameters
    assert_equal [1, 2, 4, 5], o.chain(1)
    assert_equal [1, 5, 10, 11], o.chain(1, 5)
    assert_equal [1, 5, 3, 4], o.chain(1, 5, k: 3)
    assert_equal [1, 2, 4, 0], o.chain(1, j: 0)
    assert_equal [1, 2, 9, 10], o.chain(1, k: 9)
    assert_equal [1, 2, 3], o.later
    assert_equal [1, 5, 6], o.later(k2: 5)
    assert_equal [4, 5, 9], o.later(k1: 4)
    assert_equal [4, 2, 6], o.later(k2: 2, k1: 4)
    assert_equal [0, 0, 0], o.later(k3: 0, k2: 0, k1: 0)
    assert_equal [:da, :dk], o.opt_then_key
    assert_equal [:a, :dk], o.opt_then_key(:a)
    assert_equal [:a, :k], o.opt_then_key(:a, k: :k)
    assert_equal [:da, :k], o.opt_then_key(k: :k)
  end

  def test_far_default
    assert_equal [1, 210, 44100, 0], o.far(d: 0)
    assert_equal [0, 190, 39900, 1], o.far(a: 0, d: 1)
    assert_equal [1, 1, 210, 2], o.far(b: 1, d: 2)
    assert_equal [1, 210, 3, 4], o.far(c: 3, d: 4)
  end

  def test_many_keywords
    assert_equal 136, o.many
    assert_equal 135, o.many(k1: 0)
    assert_equal 120, o.many(k16: 0)
    h = (1..16).to_h { |i| [:"k#{i}", 0] }
    assert_equal 0, o.many(**h)
    assert_equal 0, o.many(k1: 0, k2: 0, k3: 0, k4: 0, k5: 0, k6: 0, k7: 0, k8: 0, k9: 0, k10: 0,
                           k11: 0, k12: 0, k13: 0, k14: 0, k15: 0, k16: 0)
  end

  def test_rest
    assert_equal [1, 1, {}], o.rest(1)
    assert_equal [1, 2, { z: 3 }], o.rest(1, z: 3, k: 2)
    assert_equal [1, 1, { "s" => 2 }], o.rest(1, **{ "s" => 2 })
  end

  def test_missing_keyword_messages
    e = assert_raise(ArgumentError) { o.area(width: 1) }
    assert_equal "missing keyword: :height", e.message
    e = assert_raise(ArgumentError) { o.far }
    assert_equal "missing keyword: :d", e.message
    e = assert_raise(ArgumentError) { kw_tab_top }
    assert_equal "missing keyword: :width", e.message
  end

  def test_unknown_keyword_messages
    e = assert_raise(ArgumentError) { o.area(width: 1, height: 2, depth: 3) }
    assert_equal "unknown keyword: :depth", e.message
    e = assert_raise(ArgumentError) { o.move(1, 2, dz: 3, dw: 4) }
    assert_equal "unknown keywords: :dz, :dw", e.message
    e = assert_raise(ArgumentError) { o.move(1, 2, **{ "dx" => 1 }) }
    assert_equal 'unknown keyword: "dx"', e.message
    e = assert_raise(ArgumentError) { o.move(1, dx: 1) }
    assert_equal "wrong number of arguments (given 1, expected 2)", e.message
  end

  def test_keywords_given_twice_through_a_splat
    h = { dx: 1 }
    assert_equal [11, 2], o.move(1, 2, **h, dx: 10)
    assert_equal [2, 2], o.move(1, 2, dx: 10, **h)
  end

  def test_send_and_public_send
    assert_equal 6, o.send(:area, width: 2, height: 3)
    assert_equal 24, o.public_send(:area, height: 3, width: 2, scale: 4)
    assert_equal [1, 5], o.__send__(:move, 1, 2, dy: 3)
    assert_equal 6, o.method(:area).call(width: 3, height: 2)
    assert_equal 6, o.method(:area).to_proc.call(width: 3, height: 2)
    assert_equal 6, o.method(:area).unbind.bind(o).call(width: 3, height: 2)
  end

  def test_method_missing
    g = KwTabGhost.new
    assert_equal [:kw_x, [1], { k: 2 }], g.kw_x(1, k: 2)
    assert_equal [:kw_y, [], {}], g.kw_y
    assert_equal [:kw_y, [], { k: 1 }], g.kw_y(k: 1)
    assert_equal [:kw_y, [1, 2], { k: 1 }], g.kw_y(*[1, 2], k: 1)
    assert_raise(NoMethodError) { g.other(k: 1) }
  end

  def test_super_and_zsuper
    c = KwTabChild.new
    assert_equal [:base, 1, 50], c.sup(1)
    assert_equal [:base, 1, 20], c.sup(1, k: 2)
    assert_equal [:base, 1, 8, 8], c.zsup(1)
    assert_equal [:base, 1, 4, 0], c.zsup(1, j: 0, k: 3)
  end

  def test_define_method_blocks_and_lambdas
    d = KwTabDefined.new
    assert_equal [0, 1, 2], d.dm(0, j: 2)
    assert_equal [0, 3, 2], d.dm(0, j: 2, k: 3)
    e = assert_raise(ArgumentError) { d.dm(0) }
    assert_equal "missing keyword: :j", e.message
    assert_equal :l, d.dl
    assert_equal :m, d.dl(k: :m)

    blk = proc { |a, k: 1, j: (k + 1)| [a, k, j] }
    assert_equal [1, 1, 2], blk.call(1)
    assert_equal [1, 5, 6], blk.call(1, k: 5)
    assert_equal [1, 5, 0], blk.(1, j: 0, k: 5)
    lam = ->(k:, j: k * 2) { [k, j] }
    assert_equal [3, 6], lam.call(k: 3)
    assert_equal [3, 1], lam.(j: 1, k: 3)
    e = assert_raise(ArgumentError) { lam.call }
    assert_equal "missing keyword: :k", e.message
    assert_equal [[1, 2], [2, 3]], [1, 2].map { |x| o.move(x, x, dy: 1).then { |a, b| [a, b] } }
    assert_equal 20, o.with_block(k: 10) { |k| k * 2 }
    assert_equal 2, o.with_block { |k| k * 2 }
    def_yield = ->(&b) { b.call(k: 4) }
    assert_equal 4, def_yield.call { |k: 0| k }
  end

  def test_top_level_method
    assert_equal [1, 2, 3], kw_tab_top(width: 1)
    assert_equal [1, 5, 6], kw_tab_top(height: 5, width: 1)
    assert_equal [1, 5, 0], kw_tab_top(width: 1, depth: 0, height: 5)
  end

  def test_method_called_inside_a_ractor
    r = Ractor.new do
      k = KwTabBase.new
      [kw_tab_top(width: 1), kw_tab_top(width: 2, height: 3),
       k.area(width: 2, height: 3), k.move(1, 2, dy: 3), k.chain(1, k: 9), k.far(d: 0),
       (begin; k.area(width: 1); rescue ArgumentError => e; e.message; end),
       (begin; k.area(width: 1, height: 1, x: 1); rescue ArgumentError => e; e.message; end)]
    end
    assert_equal [[1, 2, 3], [2, 3, 5], 6, [1, 5], [1, 2, 9, 10], [1, 210, 44100, 0],
                  "missing keyword: :height", "unknown keyword: :x"], r.take
  end

  def test_methods_compiled_by_eval
    obj = Object.new
    eval("def obj.ev(a, k: a + 1, j:) = [a, k, j]")
    assert_equal [1, 2, 3], obj.ev(1, j: 3)
    assert_equal [1, 0, 3], obj.ev(1, k: 0, j: 3)
    obj.instance_eval("def ie(k: :x, **o) = [k, o]")
    assert_equal [:x, {}], obj.ie
    assert_equal [:y, { z: 1 }], obj.ie(z: 1, k: :y)
    klass = Class.new
    klass.class_eval("def ce(w:, h: w) = w * h")
    assert_equal 9, klass.new.ce(w: 3)
    assert_equal 6, klass.new.ce(h: 2, w: 3)
    e = assert_raise(ArgumentError) { klass.new.ce(h: 2) }
    assert_equal "missing keyword: :w", e.message
  end

  def test_many_calls_stay_correct
    sum = 0
    i = 0
    while i < 2000
      sum += o.area(width: i, height: 2)
      sum += o.move(i, 1, dy: 3).sum
      i += 1
    end
    assert_equal 3998000 + 1999000 + 8000, sum
  end
end
