# Integer methods mruby lacks or gets wrong, as in CRuby 3.1, for fixnums and Bignums.

assert('Integer#even? and #odd?') do
  assert_equal [true, false, false, true], [4.even?, 3.even?, 0.odd?, -3.odd?]
  assert_true 0.even?
  assert_equal [true, false, true, false], [(2**70).even?, (2**70).odd?, (2**70 + 1).odd?, (-2**70 - 1).even?]
end

assert('Integer#pred') do
  assert_equal 4, 5.pred
  assert_equal(-1, 0.pred)
  assert_equal(-0x7fffffffffffffff - 2, (-0x7fffffffffffffff - 1).pred)
  assert_equal 2**70 - 1, (2**70).pred
end

assert('Integer#integer? and Numeric#integer?') do
  assert_true 1.integer?
  assert_false 1.0.integer?
  assert_false 1r.integer? if Object.const_defined?(:Rational)   # mnrb-rational: not a dependency
end

assert('Integer#bit_length') do
  assert_equal [0, 1, 0, 8, 9, 8, 9], [0, 1, -1, 255, 256, -256, -257].map(&:bit_length)
  assert_equal 62, (1 << 61).bit_length + 0
  assert_equal 63, 0x7fffffffffffffff.bit_length
  assert_equal 63, (-0x7fffffffffffffff - 1).bit_length
  assert_equal [64, 71, 70, 71], [(2**63).bit_length, (2**70).bit_length, (-2**70).bit_length, (-2**70 - 1).bit_length]
end

assert('Integer#pow(b) is **') do
  assert_equal 8, 2.pow(3)
  assert_equal 2 ** -2, 2.pow(-2)
  assert_raise(ArgumentError) { 2.pow }
  assert_raise(ArgumentError) { 2.pow(1, 2, 3) }
end

assert('Integer#pow(b, m) is modular exponentiation with the sign of m') do
  assert_equal 24, 2.pow(10, 1000)
  assert_equal(-976, 2.pow(10, -1000))
  assert_equal 2, (-2).pow(3, 5)
  assert_equal(-3, (-2).pow(3, -5))
  assert_equal 0, 3.pow(0, 1)
  assert_equal 3075418, 12345678901.pow(98765, 1000000007)
  assert_equal 9, 3.pow(2, 1 << 62)
end

assert('Integer#pow(b, m) with Bignums anywhere') do
  assert_equal 24, (2**70).pow(3, 1000)
  assert_equal(-976, (2**70).pow(3, -1000))
  assert_equal 481, 3.pow(2**70, 1000)
  assert_equal 2**70 - 243, (-3).pow(5, 2**70)
  assert_equal 95942358336098822316, (2**70).pow(2**65, 10**20 + 1)
  assert_equal 0, 2.pow(71, 2**70)
  assert_equal 1, 3.pow(0, 2**70)
  assert_raise(RangeError) { 2.pow(-(2**70), 5) }
  assert_raise(ZeroDivisionError) { (2**70).pow(2, 0) }
end

assert('Integer#pow(b, m) argument errors') do
  assert_raise_with_message(TypeError, 'Integer#pow() 2nd argument not allowed unless all arguments are integers') { 2.pow(3, 1.5) }
  assert_raise_with_message(TypeError, 'Integer#pow() 2nd argument not allowed unless a 1st argument is integer') { 2.pow(1.5, 3) }
  assert_raise_with_message(RangeError, 'Integer#pow() 1st argument cannot be negative when 2nd argument specified') { 2.pow(-1, 3) }
  assert_raise_with_message(ZeroDivisionError, 'divided by 0') { 2.pow(3, 0) }
end

assert('Integer#gcd, #lcm, #gcdlcm') do
  assert_equal 6, 12.gcd(18)
  assert_equal 6, -12.gcd(18)
  assert_equal 0, 0.gcd(0)
  assert_equal 36, 12.lcm(18)
  assert_equal 0, 0.lcm(5)
  assert_equal 12, -4.lcm(6)
  assert_equal [6, 36], 12.gcdlcm(18)
end

assert('Integer#gcd and #lcm take only Integers') do
  assert_raise_with_message(TypeError, 'not an integer') { 12.gcd(1.0) }
  assert_raise_with_message(TypeError, 'not an integer') { 12.lcm(nil) }
end

assert('Integer#gcd and #lcm overflow into Bignums, as CRuby') do
  assert_equal 2**63, (-0x7fffffffffffffff - 1).gcd(0)
  assert_equal 0xfffffffffffffffe, 0x7fffffffffffffff.lcm(2)
  assert_equal 2**40, (2**70).gcd(2**40 * 3)
  assert_equal 2, 6.gcd(2**70)
  assert_equal 3 * 2**70, (2**70).lcm(-3)
end

assert('Integer#digits') do
  assert_equal [4, 3, 2, 1], 1234.digits
  assert_equal [34, 12], 1234.digits(100)
  assert_equal [0], 0.digits
  assert_equal [0, 1, 0, 1], 10.digits(2.5)
  assert_equal [4, 2, 4, 3, 0, 3, 1, 1, 4, 7, 1, 7, 0, 2, 6, 1, 9, 5, 0, 8, 1, 1], (2**70).digits
  assert_equal [0, 2**30], (2**70).digits(2**40)
  assert_equal [100], 100.digits(2**70)
end

assert('Integer#digits errors') do
  assert_raise_with_message(Math::DomainError, 'out of domain') { -1.digits }
  assert_raise_with_message(Math::DomainError, 'out of domain') { (-2**70).digits }
  assert_raise_with_message(ArgumentError, 'invalid radix 1') { 10.digits(1) }
  assert_raise_with_message(ArgumentError, 'invalid radix 0') { 10.digits(0) }
  assert_raise_with_message(ArgumentError, 'negative radix') { 10.digits(-2) }
  assert_raise_with_message(TypeError, 'no implicit conversion of String into Integer') { 10.digits('a') }
  assert_raise_with_message(TypeError, 'no implicit conversion of nil into Integer') { 10.digits(nil) }
end

assert('Integer#fdiv') do
  assert_float 0.3333333333333333, 1.fdiv(3)
  assert_equal Float::INFINITY, 1.fdiv(0)
  assert_equal(-Float::INFINITY, -1.fdiv(0))
  assert_true 0.fdiv(0).nan?
  assert_float 0.4, 1.fdiv(2.5)
  assert_float 0.5, 1.fdiv(2r) if Object.const_defined?(:Rational)
  assert_equal 3.0, 9007199254740993.fdiv(3002399751580331)
  assert_equal 2.0, (2**70).fdiv(2**69)
  assert_equal 10.0, (10**30).fdiv(10**29)
  assert_equal(-Float::INFINITY, (-2**70).fdiv(0))
end

assert('Integer#fdiv needs a number') do
  assert_raise_with_message(TypeError, "String can't be coerced into Integer") { 1.fdiv('a') }
  assert_raise_with_message(TypeError, "nil can't be coerced into Integer") { 1.fdiv(nil) }
end

assert('Float#fdiv') do
  assert_float 1.25, 2.5.fdiv(2)
end
