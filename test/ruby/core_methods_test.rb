# Core-class methods real programs use, as CRuby has them: Struct's keyword construction
# (keyword_init: and, since 3.2, keywords for any Struct), String.new's keywords, String#+@ / #-@
# (deduplication), Symbol#name, Integer.sqrt (exact for Bignums), Array#shuffle / #sample with
# random: (CRuby's numbers for a seed) and Comparable#clamp with ranges. Passes on CRuby 3.1; where
# 3.2+ differs the newer behaviour is checked when RUBY_VERSION says so.

class CoreMethodsTest < MnTest::Case
  def since_3_2? = RUBY_VERSION >= "3.2"

  KwPoint = Struct.new(:x, :y, keyword_init: true)
  Point = Struct.new(:x, :y)
  PosPoint = Struct.new(:x, :y, keyword_init: false)

  def test_keyword_init_struct_takes_keywords_only
    pt = KwPoint.new(x: 1, y: 2)
    assert_equal [1, 2], [pt.x, pt.y]
    assert_equal [nil, nil], KwPoint.new.to_a
    e = assert_raise(ArgumentError) { KwPoint.new(1, 2) }
    assert_equal "wrong number of arguments (given 2, expected 0)", e.message
    e = assert_raise(ArgumentError) { KwPoint.new(x: 1, z: 2, w: 3) }
    assert_equal "unknown keywords: z, w", e.message
  end

  def test_keyword_init_predicate_and_inspect
    assert_equal true, KwPoint.keyword_init?
    assert_nil Point.keyword_init?
    assert_equal false, PosPoint.keyword_init?
    assert_equal "CoreMethodsTest::KwPoint(keyword_init: true)", KwPoint.inspect
    assert_equal "CoreMethodsTest::Point", Point.inspect
  end

  def test_keyword_init_struct_with_block_and_subclass
    s = Struct.new(:a, keyword_init: true) { def twice = a * 2 }
    assert_equal 8, s.new(a: 4).twice
    assert_equal 1, Class.new(s).new(a: 1).a
    assert_equal 5, KwPoint[x: 5].x
  end

  def test_plain_struct_takes_keywords_alone_since_3_2
    return unless since_3_2?
    assert_equal [1, 2], Point.new(x: 1, y: 2).to_a
    e = assert_raise(ArgumentError) { Point.new(x: 1, q: 2) }
    assert_equal "unknown keywords: q", e.message
  end

  def test_plain_struct_keeps_positional_hashes
    assert_equal [{ x: 1 }, nil], Point.new({ x: 1 }).to_a
    assert_equal [1, { y: 2 }], Point.new(1, y: 2).to_a
    assert_equal [{ x: 1, y: 2 }, nil], PosPoint.new(x: 1, y: 2).to_a
    e = assert_raise(ArgumentError) { Point.new(1, 2, 3) }
    assert_equal "struct size differs", e.message
  end

  def test_string_new_keywords
    assert_equal "", String.new(capacity: 100)
    assert_equal Encoding::BINARY, String.new.encoding
    assert_equal Encoding::BINARY, String.new(capacity: 10).encoding
    assert_equal Encoding::UTF_8, String.new("abc", capacity: 100).encoding
    assert_equal Encoding::BINARY, String.new("x", encoding: "ASCII-8BIT").encoding
    assert_equal Encoding::UTF_8, String.new(encoding: Encoding::UTF_8).encoding
    assert_equal "ab", String.new("ab", capacity: 1)
    refute String.new(capacity: 10).frozen?
    e = assert_raise(TypeError) { String.new(capacity: "a") }
    assert_equal "no implicit conversion of String into Integer", e.message
    e = assert_raise(ArgumentError) { String.new(encoding: "nope") }
    assert_equal "unknown encoding name - nope", e.message
    e = assert_raise(TypeError) { String.new(1) }
    assert_equal "no implicit conversion of Integer into String", e.message
    assert_raise(ArgumentError) { String.new(foo: 1) }
  end

  def test_unary_plus_gives_a_mutable_string
    s = "a".dup
    assert_same s, +s
    f = "b".freeze
    refute_same_object f, +f
    assert_equal false, (+f).frozen?
    assert_equal "b", +f
  end

  def refute_same_object(a, b)
    refute a.equal?(b), "expected different objects, got the same #{a.inspect}"
  end

  def test_unary_minus_deduplicates
    assert_same(-"mnrb dedup a", -"mnrb dedup a")
    assert_same(-"mnrb dedup a", "mnrb dedup a".dup.-@)
    assert (-"mnrb dedup a").frozen?
    x = "mnrb dedup zq".dup
    y = -x
    assert_equal [false, true, false], [y.equal?(x), y.frozen?, x.frozen?]
    assert_same y, -("mnrb dedup " + "zq")
  end

  def test_unary_minus_of_a_frozen_string_registers_it
    f = ("mnrb dedup " + rand(1 << 60).to_s).freeze
    assert_same f, -f
    assert_same f, -f.dup
  end

  def test_dedup_is_unary_minus_since_3_2
    return unless since_3_2?
    assert_same(-"mnrb dedup b", "mnrb dedup b".dup.dedup)
  end

  def test_symbol_name_is_the_same_frozen_string
    assert_same :abc.name, :abc.name
    assert :abc.name.frozen?
    assert_equal "foo bar", :"foo bar".name
    assert_equal "abc", :abc.name
  end

  def test_integer_sqrt
    assert_equal 4, Integer.sqrt(24)
    assert_equal 5, Integer.sqrt(25)
    assert_equal 0, Integer.sqrt(0)
    assert_equal 1, Integer.sqrt(2.9)
    assert_equal 10**20, Integer.sqrt(10**40 + 5)
    assert_equal 2**32, Integer.sqrt(2**64)
    assert_equal 2**100 - 1, Integer.sqrt((2**100)**2 - 1)
    assert_equal 2**100, Integer.sqrt((2**100 + 1)**2 - 1)
    assert_equal 94906265, Integer.sqrt(2**53 + 1)
    (0..2000).each do |n|
      r = Integer.sqrt(n)
      assert r * r <= n && (r + 1) * (r + 1) > n, "Integer.sqrt(#{n}) = #{r}"
    end
  end

  def test_integer_sqrt_errors
    e = assert_raise(Math::DomainError) { Integer.sqrt(-1) }
    assert_equal 'Numerical argument is out of domain - "isqrt"', e.message
    e = assert_raise(TypeError) { Integer.sqrt("4") }
    assert_equal "no implicit conversion of String into Integer", e.message
    e = assert_raise(TypeError) { Integer.sqrt(nil) }
    assert_equal "no implicit conversion of nil into Integer", e.message
    assert_raise(TypeError) { Integer.sqrt(Object.new) }
  end

  # Expected values are CRuby's (checked on ruby 3.1) for the same seed.
  def test_shuffle_with_random_is_crubys
    a = (1..10).to_a
    assert_equal [9, 2, 6, 1, 8, 3, 10, 5, 4, 7], a.shuffle(random: Random.new(42))
    b = [1, 2, 3, 4, 5]
    b.shuffle!(random: Random.new(7))
    assert_equal [1, 4, 3, 2, 5], b
  end

  def test_sample_with_random_is_crubys
    a = (1..10).to_a
    assert_equal 7, a.sample(random: Random.new(42))
    assert_equal [7, 4, 6], a.sample(3, random: Random.new(42))
    assert_equal [7, 4, 6, 10, 3, 9, 1, 8, 5, 2], a.sample(10, random: Random.new(42))
    assert_equal [38, 13, 75, 10, 80], (1..100).to_a.sample(5, random: Random.new(1))
    assert_equal [38, 14, 75, 13, 80], (1..100).to_a.sample(50, random: Random.new(1)).first(5)
    assert_equal [11, 5, 1, 4, 10, 19, 2, 18, 20, 6, 9, 17, 3, 13, 15], (1..20).to_a.sample(15, random: Random.new(3))
    assert_equal [3, 2], [1, 2, 3].sample(2, random: Random.new(5))
    assert_nil [].sample(random: Random.new(1))
    assert_raise(NoMethodError) { [1, 2].shuffle(random: 1) }
  end

  def test_clamp_with_ranges
    assert_equal 3, 5.clamp(1..3)
    assert_equal 5, 5.clamp(1..)
    assert_equal 0, 0.clamp(..3)
    assert_equal 2, 5.clamp(..2)
    assert_equal 5, 5.clamp(1...)
    assert_equal 5, 5.clamp(nil..nil)
    assert_equal 3.5, 5.clamp(1.0..3.5)
    assert_equal "b", "b".clamp("a".."c")
    assert_equal 3, 5.clamp(nil, 3)
  end

  def test_clamp_errors
    e = assert_raise(ArgumentError) { 0.clamp(1...3) }
    assert_equal "cannot clamp with an exclusive range", e.message
    e = assert_raise(ArgumentError) { 5.clamp(3..1) }
    assert_equal "min argument must be smaller than max argument", e.message
    e = assert_raise(ArgumentError) { 5.clamp(3, 1) }
    assert_equal "min argument must be smaller than max argument", e.message
    e = assert_raise(TypeError) { 5.clamp(1) }
    assert_equal "wrong argument type Integer (expected Range)", e.message
    e = assert_raise(ArgumentError) { 5.clamp(1, "a") }
    assert_equal "comparison of Integer with String failed", e.message
    e = assert_raise(ArgumentError) { "b".clamp(1, 2) }
    assert_equal "comparison of String with 1 failed", e.message
  end
end
