# mnrb-random: Random, Kernel#rand/#srand, Array#shuffle/#sample give CRuby's numbers.
#
# Every expected value below was printed by CRuby (/usr/bin/ruby 3.1.2) and the file passes there:
#   ruby random_test.rb           mruby random_test.rb           (or as the gem's mrbtest file)
# Floats are compared bit for bit (assert_same_float), the expected value given as its IEEE bits
# with CRuby's decimal in a comment: mruby 3.3 does not read every decimal literal to the nearest
# double (mnrb reads them exactly: patches/mruby/0016).

unless respond_to?(:assert_equal, true)   # plain ruby or bin/mruby: a minimal harness
  $results = { ok: 0, failed: [] }
  def assert(name)
    $current = name
    yield
  rescue Exception => e
    $results[:failed] << "#{name}: #{e.class}: #{e.message}"
  end
  def check(ok, what)
    ok ? $results[:ok] += 1 : $results[:failed] << "#{$current}: #{what}"
  end
  def assert_equal(exp, act, msg = nil) = check(exp == act, "expected #{exp.inspect}, got #{act.inspect} #{msg}")
  def assert_true(v, msg = nil) = check(v == true, "expected true #{msg}")
  def assert_false(v, msg = nil) = check(v == false, "expected false #{msg}")
  def assert_nil(v, msg = nil) = check(v.nil?, "expected nil, got #{v.inspect} #{msg}")
  def assert_kind_of(c, v, msg = nil) = check(v.is_a?(c), "expected a #{c}, got #{v.inspect} #{msg}")
  def assert_raise_with_message(cls, message)
    yield
    check(false, "expected #{cls}: #{message}, nothing raised")
  rescue Exception => e
    check(e.class == cls && e.message == message, "expected #{cls}: #{message}, got #{e.class}: #{e.message}")
  end
  $standalone = true
end

# A Float's bits as [high word, low word].
def float_words(f)
  return f unless f.is_a?(Float)
  [f].pack("G").unpack("NN")
end
def assert_same_float(bits, act)
  assert_equal [bits >> 32, bits & 0xffffffff], float_words(act), "(got #{act})"
end

# CRuby raises Errno::EDOM; an mruby without SystemCallError raises RuntimeError, same message.
EDOM = Object.const_defined?(:Errno) && Errno.const_defined?(:EDOM) ? Errno::EDOM : RuntimeError

assert('Random.new(42).rand is the first 53-bit double of MT19937 seeded by init_genrand(42)') do
  assert_same_float 0x3fd7f8771e5f51ec, Random.new(42).rand  # 0.3745401188473625
end

assert('rand(2**32) is one raw 32-bit output') do
  r = Random.new(42)
  assert_equal [1608637542, 3421126067, 4083286876], [r.rand(2**32), r.rand(2**32), r.rand(2**32)]
end

assert('rand(n) below 32 bits: masked outputs, rejected above n - 1') do
  r = Random.new(1)
  assert_equal [37, 12, 72, 9, 75], [r.rand(100), r.rand(100), r.rand(100), r.rand(100), r.rand(100)]
end

assert('rand(n) up to 64 bits draws the high word first') do
  assert_equal 441507790259, Random.new(42).rand(2**40)
  assert_equal 6909045637428952499, Random.new(42).rand(2**64)
end

assert('rand(n) beyond 64 bits draws 32-bit words from the most significant down') do
  assert_equal 715669899378304353116, Random.new(42).rand(2**70)
  assert_equal 5681832686530518414, Random.new(7).rand(2**64 + 1)
  assert_equal 378704183155350554357249316419, Random.new(7).rand(10**30)
  assert_equal 500152449, Random.new(42).rand(2**1024) % 1000000007
end

assert('rand(1), rand(1..1) and rand(1.0..1.0) draw nothing') do
  r = Random.new(42)
  assert_equal [0, 1], [r.rand(1), r.rand(1..1)]
  assert_same_float 0x3ff0000000000000, r.rand(1.0..1.0)  # 1.0
  assert_equal 1608637542, r.rand(2**32)
end

assert('rand(Float) scales a double in [0, 1); rand(0.0) is the double') do
  assert_same_float 0x3fe1fa5956c77d71, Random.new(42).rand(1.5)  # 0.5618101782710437
  assert_same_float 0x3fd7f8771e5f51ec, Random.new(42).rand(0.0)  # 0.3745401188473625
end

assert('rand(Integer range), included or excluded end, any size') do
  assert_equal [4, 4, 1], [Random.new(42).rand(1..6), Random.new(42).rand(1...6), Random.new(42).rand(-5..5)]
  assert_equal 18446744073709551622, Random.new(42).rand(2**64..2**64 + 10)
  assert_equal(-29984442509990150733, Random.new(42).rand(-2**65...-2**64))
end

assert('rand(Float range): an included end makes the double inclusive') do
  assert_same_float 0x3ff5fe1dc66cbea4, Random.new(42).rand(1.0..2.0)  # 1.3745401144950984
  assert_same_float 0x3ff5fe1dc797d47b, Random.new(42).rand(1.0...2.0)  # 1.3745401188473625
  assert_same_float 0x3ff8fd2ca9a31df6, Random.new(42).rand(1..2.5)  # 1.5618101717426476
end

assert('rand(-Float::MAX..Float::MAX) draws around the middle instead of overflowing') do
  assert_same_float 0xffd00f11cc9a0adf, Random.new(42).rand(-Float::MAX..Float::MAX)  # -4.510767497455475e+307
end

assert('rand(range) adds with + to the begin: Rational and Time ranges') do
  assert_equal 3r, Random.new(42).rand(1r..3r)
  assert_equal 2, Random.new(42).rand(3r)
  t = Random.new(42).rand(Time.at(0)..Time.at(10))
  assert_true t.is_a?(Time) && (t.to_f - 3.745401144950984).abs < 1e-6
end

assert('a seed is keyed by the 32-bit words of its absolute value') do
  assert_equal Random.new(42).rand(2**32), Random.new(-42).rand(2**32)
  r = Random.new(2**32 + 5)            # a top word of 1 is dropped: seeds like 5
  assert_equal [953453411, 236996814], [r.rand(2**32), r.rand(2**32)]
  assert_equal 2349986032, Random.new(2**64 + 5).rand(2**32)
  assert_equal [4211729192, 4211729192], [Random.new(2**96 + 7).rand(2**32), Random.new(-(2**96 + 7)).rand(2**32)]
end

assert('Random#seed is the seed given, truncated to an Integer') do
  assert_equal [42, -42, 2**100, 1, -1], [42, -42, 2**100, 1.9, -1.9].map { |s| Random.new(s).seed }
end

assert('Random.new_seed and Random.new without a seed: 128 random bits from the OS') do
  s = Random.new_seed
  assert_kind_of Integer, s
  assert_true s >= 0 && s < 2**128
  assert_false s == Random.new_seed
  assert_true Random.new.seed != Random.new.seed
end

assert('srand and Random.srand reseed the default generator and return the previous seed') do
  srand(5)
  assert_equal 5, srand(6)
  assert_equal 6, Random.srand(7)
  assert_equal 7, Random.seed
  assert_equal 7, srand
  srand(42)
  assert_same_float 0x3fd7f8771e5f51ec, rand  # 0.3745401188473625
  srand(42)
  assert_same_float 0x3fd7f8771e5f51ec, Random.rand  # 0.3745401188473625
end

assert('Kernel#rand: max.to_int.abs, and a Float for 0 or nil') do
  [[-3, 2], [1.5, 0], [3r, 2]].each do |max, v|
    srand(42)
    assert_equal v, rand(max)
  end
  [0, nil, -0.5, 0.5r].each do |max|
    srand(42)
    assert_same_float 0x3fd7f8771e5f51ec, rand(max)  # 0.3745401188473625
  end
  assert_nil rand(6..1)
end

assert('Random#rand rejects what is out of its domain') do
  r = Random.new(1)
  assert_raise_with_message(ArgumentError, 'invalid argument - 0') { r.rand(0) }
  assert_raise_with_message(ArgumentError, 'invalid argument - -3') { r.rand(-3) }
  assert_raise_with_message(ArgumentError, 'invalid argument - ') { r.rand(nil) }
  assert_raise_with_message(ArgumentError, 'invalid argument - 6..1') { Random.rand(6..1) }
  assert_raise_with_message(ArgumentError, 'invalid argument - -1.5') { r.rand(-1.5) }
  assert_raise_with_message(TypeError, 'no implicit conversion of String into Integer') { r.rand('3') }
  assert_raise_with_message(TypeError, 'no implicit conversion of Range into Integer') { r.rand('a'..'c') }
end

assert('infinite and endless maxima raise Errno::EDOM, Kernel#rand FloatDomainError') do
  r = Random.new(1)
  assert_raise_with_message(EDOM, 'Numerical argument out of domain') { r.rand(Float::INFINITY) }
  assert_raise_with_message(EDOM, 'Numerical argument out of domain') { r.rand(1..) }
  assert_raise_with_message(EDOM, 'Numerical argument out of domain') { r.rand(1.0..Float::INFINITY) }
  assert_raise_with_message(FloatDomainError, 'Infinity') { rand(Float::INFINITY) }
end

assert('seeds convert with to_int') do
  assert_raise_with_message(TypeError, 'no implicit conversion of nil into Integer') { Random.new(nil) }
  assert_raise_with_message(TypeError, 'no implicit conversion of String into Integer') { srand('1') }
  assert_raise_with_message(FloatDomainError, 'NaN') { Random.new(Float::NAN) }
end

assert('random_number: out of domain gives a Float, unusable is ArgumentError') do
  assert_equal 8, Random.new(3).random_number(10)
  [0, -3, nil, 6..1, -1.5].each do |max|
    assert_same_float 0x3fd7f8771e5f51ec, Random.new(42).random_number(max)  # 0.3745401188473625
  end
  srand(42)
  assert_same_float 0x3fd7f8771e5f51ec, Random.random_number  # 0.3745401188473625
  assert_raise_with_message(ArgumentError, 'invalid argument - 3') { Random.new(1).random_number('3') }
end

assert('Random#bytes: four bytes per output, least significant first') do
  assert_equal [102, 220, 225, 95, 179, 61, 234, 203, 92, 3], Random.new(42).bytes(10).unpack("C*")
  r = Random.new(42)
  r.bytes(5)                           # a partial group still takes a whole output
  assert_equal 4083286876, r.rand(2**32)
  srand(42)
  assert_equal [102, 220, 225, 95, 179], Random.bytes(5).unpack("C*")
  assert_raise_with_message(ArgumentError, 'negative string size (or size too big)') { r.bytes(-1) }
end

assert('Random#== compares class, seed and position; dup copies the position') do
  a, b = Random.new(42), Random.new(42)
  assert_true a == b
  a.rand
  assert_false a == b
  b.rand
  assert_true a == b
  assert_false Random.new(42) == Random.new(2**32 + 42)   # same stream, different seed
  c = a.dup
  assert_equal a.rand(2**32), c.rand(2**32)
end

assert('Array#shuffle and #shuffle! give CRuby order for a given Random') do
  assert_equal [6, 5, 2, 3, 10, 7, 8, 1, 4, 9], (1..10).to_a.shuffle(random: Random.new(3))
  assert_equal [12, 16, 20, 7, 14, 13, 17, 6, 18, 3, 11, 4, 2, 10, 8, 15, 5, 19, 1, 9],
               (1..20).to_a.shuffle(random: Random.new(2024))
  a = (1..10).to_a
  assert_true a.shuffle!(random: Random.new(3)).equal?(a)
  assert_equal [6, 5, 2, 3, 10, 7, 8, 1, 4, 9], a
  srand(3)
  assert_equal [6, 5, 2, 3, 10, 7, 8, 1, 4, 9], (1..10).to_a.shuffle
  assert_raise_with_message(FrozenError, "can't modify frozen Array: [1, 2]") { [1, 2].freeze.shuffle! }
end

assert('Array#sample: one, a few (stepping past picks), many (partial shuffle)') do
  assert_equal 9, (1..10).to_a.sample(random: Random.new(3))
  assert_equal [9, 4, 1], (1..10).to_a.sample(3, random: Random.new(3))
  assert_equal [48, 70], (1..100).to_a.sample(2, random: Random.new(7))
  assert_equal [48, 70, 26, 71, 88, 24, 99, 61, 15, 27], (1..100).to_a.sample(10, random: Random.new(7))
  assert_equal [48, 70, 28, 71, 88, 29, 99, 65, 23, 33, 83, 54], (1..100).to_a.sample(12, random: Random.new(7))
  assert_nil [].sample
  assert_equal [], [].sample(3)
  assert_equal [1, 2], [1, 2].sample(5, random: Random.new(1)).sort
  assert_raise_with_message(ArgumentError, 'negative sample number') { [1, 2].sample(-1) }
end

class LastIndex                           # a random: source that answers n - 1 to rand(n)
  attr_reader :calls
  def initialize(excess = 0) = (@calls, @excess = [], excess)
  def rand(n) = (@calls << n; n - 1 + @excess)
end

assert('random: any object with rand(n), range-checked as CRuby does') do
  o = LastIndex.new
  assert_equal [1, 2, 3, 4], [1, 2, 3, 4].shuffle(random: o)
  assert_equal [4, 3, 2, 1], o.calls
  assert_raise_with_message(RangeError, 'random number too big 3') { [1, 2, 3].shuffle(random: LastIndex.new(1)) }
end

assert('class layout of CRuby 3.2+: Random < Random::Base, Formatter, no DEFAULT') do
  assert_equal [Random, Random::Base, Random::Formatter], Random.ancestors[0, 3]
  assert_true Random.is_a?(Random::Formatter)             # extended
  assert_raise_with_message(TypeError, 'allocator undefined for Random::Base') { Random::Base.new(1) }
  unless RUBY_ENGINE == 'ruby' && RUBY_VERSION < '3.2'   # 3.1 still has Random::DEFAULT
    assert_false Random.const_defined?(:DEFAULT)
  end
end

if $standalone
  $results[:failed].each { |f| puts "FAIL #{f}" }
  puts "#{$results[:ok]} assertions passed, #{$results[:failed].size} failed"
  raise "random_test.rb failed" unless $results[:failed].empty?
end
