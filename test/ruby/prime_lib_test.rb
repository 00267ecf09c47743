# require "prime" as CRuby's prime library (a bundled gem in CRuby 3.1+): Prime as an Enumerable
# singleton, Integer#prime? (Miller-Rabin, exact), factorization, and the generators. Expected
# values checked on Debian's ruby 3.1 (prime 0.1.2); CRuby 3.3.8 built without bundled gems skips.
begin
  require "prime"
rescue LoadError
end

class PrimeLibTest < MnTest::Case
  def setup
    skip "no prime library (CRuby built without bundled gems)" unless defined?(Prime) || mnrb?
  end

  def test_the_primes_as_an_enumerable
    assert_equal [2, 3, 5, 7, 11], Prime.first(5)
    assert_equal [2, 3, 5, 7, 11, 13, 17, 19], Prime.each(20).to_a
    assert_equal [2, 3, 5, 7, 11], Prime.each(12.5).to_a
    assert_equal [], Prime.each(1).to_a
    assert_equal [5, 13, 17], Prime.lazy.select { |x| x % 4 == 1 }.first(3)
    assert_equal 9592, Prime.each(100_000).count
    assert_equal 104_729, Prime.take(10_000).last
    assert_equal [[2, 0], [3, 1], [5, 2]], Prime.each_with_index.first(3)
    assert_equal [[2, 1], [3, 2], [5, 3], [7, 4]], Prime.each(7).with_index(1).to_a
    assert_equal [2, 3, 5, 7, 11], Prime.each(11).with_object([]) { |p, a| a << p }
    assert_nil(Prime.each(10) { |x| })
    assert_raise(ArgumentError) { Prime.each("a").to_a }
  end

  def test_a_singleton_whose_class_forwards
    assert_same Prime.instance, Prime.instance
    assert_raise(NoMethodError) { Prime.new }
    assert_equal [2, 3, 5], Prime.instance.each(5).to_a
    assert Prime.include?(7)
    refute Prime.include?(8)
    assert Prime.include?(Enumerable)
  end

  def test_prime_p
    assert 97.prime?
    refute 1.prime?
    refute 0.prime?
    refute(-3.prime?)
    refute 561.prime?                          # a Carmichael number
    assert 1_000_000_007.prime?
    assert (2**61 - 1).prime?
    refute (2**67 - 1).prime?
    refute 3_215_031_751.prime?                # a strong pseudoprime to bases 2, 3, 5 and 7
    assert_equal Prime.each(2000).to_a, (1..2000).select(&:prime?)
    assert Prime.prime?(97)
    refute Prime.prime?(-3)
    e = assert_raise(ArgumentError) { Prime.prime?(2.0) }
    assert_equal "Expected an integer, got 2.0", e.message
  end

  def test_prime_division
    assert_equal [[2, 3], [3, 2], [5, 1]], 360.prime_division
    assert_equal [[-1, 1], [2, 2], [3, 1]], Prime.prime_division(-12)
    assert_equal [], 1.prime_division
    assert_equal [[274_177, 1], [67_280_421_310_721, 1]], Prime.prime_division(2**64 + 1)
    assert_raise(ZeroDivisionError) { 0.prime_division }
    assert_equal 72, Integer.from_prime_division([[2, 3], [3, 2]])
    assert_equal(-4, Prime.int_from_prime_division([[-1, 1], [2, 2]]))
    (2..500).each { |n| assert_equal n, Integer.from_prime_division(n.prime_division) }
  end

  def test_generators
    g = Prime::Generator23.new
    assert_equal [2, 3, 5, 7, 11, 13, 17, 19, 23, 25], Array.new(10) { g.next }
    t = Prime::TrialDivisionGenerator.new
    assert_equal [2, 3, 5, 7, 11], Array.new(5) { t.succ }
    e = Prime::EratosthenesGenerator.new
    assert_nil e.upper_bound
    e.upper_bound = 5
    assert_equal [2, 3, 5], e.to_a
    ten = Prime.each(10)
    assert_kind_of Prime::EratosthenesGenerator, ten
    assert_equal 10, ten.upper_bound
    assert_equal Float::INFINITY, ten.size
    assert_equal 2, ten.next
    assert_equal 3, ten.succ
    ten.rewind
    assert_equal 2, ten.next
    assert_equal [2, 3, 5, 7], Integer.each_prime(10).to_a
    e = assert_raise(NotImplementedError) { Prime::PseudoPrimeGenerator.new.succ }
    assert_equal "need to define `succ'", e.message
  end
end
