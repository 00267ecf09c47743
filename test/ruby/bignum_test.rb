# Integers beyond 64 bits (CRuby's Bignums; mruby-bigint objects of class Integer in mnrb):
# fixnums overflow into them and they work wherever an Integer does (mruby patch 0017, mnrb-compat's
# Integer methods). Expected values are CRuby 3.1's, except where a test says mnrb differs.
# Floats are picked exact with two bits to spare: mnrb's Floats keep 50 of the 52 fraction bits.

class BignumTest < MnTest::Case
  B = 2**70                       # 1180591620717411303424
  INT64_MIN = -2**63

  def test_arithmetic_overflows_into_bignums
    assert_equal 18446744073709551616, 2**64
    assert_equal 2**63, 2**62 + 2**62
    assert_equal 2**63, (2**63 - 1) + 1
    assert_equal INT64_MIN - 1, -(2**63) - 1
    assert_equal 2**128, 2**64 * 2**64
    assert_equal 340282366920938463426481119284349108225, (2**64 - 1) * (2**64 - 1)
    assert_equal Integer, (2**64).class
    assert_equal 5, (B + 5) - B
    assert_same 5, (B + 5) - B
  end

  def test_powers_shifts_and_literals
    assert_equal "515377520732011331036461129765621272702107522001", (3**100).to_s
    assert_equal(-(3**101), (-3)**101)
    assert_equal 2**100, 1 << 100
    assert_equal(-(2**100), -1 << 100)
    assert_equal 2, (2**100) >> 99
    assert_equal [0, -1], [(2**100) >> 200, -(2**100) >> 200]
    assert_equal(-(2**69) - 1, (-B - 1) >> 1)      # rounds toward negative infinity
    assert_equal 2**70, (2**80) << -10
    assert_equal 0x1234567890abcdef1234567890, "1234567890abcdef1234567890".to_i(16)
    assert_equal "-12345678901234567890123456789", (-12345678901234567890123456789).to_s
    assert_equal [1, 1, -1, 0], [1**B, (-1)**B, (-1)**(B + 1), 0**B]
  end

  # one literal pool per method: -X is not X (mruby 3.3.0 reused X's entry)
  def test_negative_bignum_literals_keep_their_sign
    a = [1180591620717411303424]
    b = [-1180591620717411303424, 1180591620717411303424]
    assert_equal [[B], [-B, B]], [a, b]
  end

  def test_bitwise_operators_work_on_twos_complement
    assert_equal B, -3 & B
    assert_equal(-B + 1, -B | 1)
    assert_equal(-B - 1, B ^ -1)
    assert_equal(-B - 1, ~B)
    assert_equal 1, (-B - 1) & 1
    assert_equal 2**64 - 256, (2**64 - 1) & -256
    assert_equal 0, B & (B - 1)
  end

  def test_to_s_inspect_and_output
    assert_equal "1" + "0" * 70, B.to_s(2)
    assert_equal "-400000000000000000", (-B).to_s(16)
    assert_equal "38wj0cnk73u15rk9", (3**50).to_s(36)
    assert_equal "-1" + "0" * 63, INT64_MIN.to_s(2)
    assert_equal "1180591620717411303424", B.inspect
    assert_equal "x 1180591620717411303424 y", "x #{B} y"
    out = capture_stdout { print B; puts(-B); p 2**64 }
    assert_equal "1180591620717411303424-1180591620717411303424\n18446744073709551616\n", out
  end

  def test_integer_and_to_i_parse_bignums
    assert_equal 1111111111111111111111111111111111111111, Integer("1" * 40)
    assert_equal(-(10**30 - 1), Integer("-" + "9" * 30))
    assert_equal 16**30 - 1, Integer("0x" + "f" * 30)
    assert_equal 2**80 - 1, Integer("0b" + "1" * 80)
    assert_equal 8**30 - 1, Integer("0o" + "7" * 30)
    assert_equal 97433442488726861213578988847752201310395502865, Integer("1" * 40, 16)
    assert_equal [2**63, INT64_MIN, -(2**63) - 1], [Integer("9223372036854775808"), Integer("-9223372036854775808"), Integer("-9223372036854775809")]
    assert_equal 10**21, Integer("1_000_000_000_000_000_000_000")
    assert_equal 123456789012345678901234, Integer("  123456789012345678901234\n")
    assert_raise(ArgumentError) { Integer("123456789012345678901234x") }
    assert_raise(ArgumentError) { Integer("1234567890123456789012__34") }
    assert_raise(ArgumentError) { Integer("123456789012345678901234_") }
    assert_equal 12345678901234567890, "12345678901234567890abc".to_i
    assert_equal(-(10**40), ("-1" + "0" * 40).to_i)
    assert_equal [16**20 - 1, 8**30 - 1], [("f" * 20).hex, ("7" * 30).oct]
  end

  def test_big_floats_convert_to_bignums
    assert_equal B, (2.0**70).to_i
    assert_equal 2**100, (2.0**100).floor
    assert_equal(-(2**80), (-(2.0**80)).ceil)
    assert_equal 3 * 2**80, (3.0 * 2**80).round
    assert_equal B, (2.0**70).truncate
    assert_equal B, Integer(2.0**70)
    assert_equal 1024, Float::MAX.to_i.bit_length
    assert_equal 1180591620717411300000, (2.0**70).floor(-5)
    assert_equal 1180591620717411400000, (2.0**70).ceil(-5)
    assert_equal 1180591620717411300000, (2.0**70).round(-5)
    assert_equal 2**60, (2.0**70).div(2.0**10)
    assert_equal [2**60, 0.0], (2.0**70).divmod(2**10)
    assert_raise(FloatDomainError) { Float::INFINITY.to_i }
  end

  def test_bignums_convert_to_the_nearest_float
    assert_equal 2.0**70, B.to_f
    assert_equal(-(2.0**70), (-B).to_f)
    assert_equal 2.0**64, (2**64 - 1).to_f          # rounded up, not truncated
    assert_equal Float::INFINITY, (2**1024 - 1).to_f
    assert_equal 2.0**70, Float(B)
    assert_equal B, B.to_f.to_i
  end

  def test_bignums_compare_with_fixnums_and_floats_on_either_side
    assert_equal [true, false, true, false], [0 < B, 0 > B, 1.5 < B, 1.5 > B]
    assert_equal [true, true, false], [-1.5 > -B, -B < -1, B <= 5]
    assert_equal [-1, -1, 1, 0, 0], [0 <=> B, 1.5 <=> B, B <=> 0, B <=> 2.0**70, 2.0**70 <=> B]
    assert_equal [true, true, false], [B == 2.0**70, 2.0**70 == B, B == 2**71]
    assert_equal [-1, 1], [B <=> 2**71, 2**71 <=> B]
    assert_equal [true, true], [B + 1 > 2.0**70, 2.0**70 < B + 1]
    assert_equal [true, false], [(2**53 + 1) > 2.0**53, (2**53 + 1) == 2.0**53]
    assert_equal [true, -1], [B < Float::INFINITY, B <=> Float::INFINITY]
    assert_equal [nil, false], [B <=> Float::NAN, B < Float::NAN]
    assert_nil B <=> "a"
    e = assert_raise(ArgumentError) { B < "a" }
    assert_equal "comparison of Integer with String failed", e.message
  end

  def test_eql_and_hash_find_equal_bignums
    assert B.eql?(2**35 * 2**35)
    refute B.eql?(2.0**70)
    assert_equal B.hash, (2**35 * 2**35).hash
    assert_equal :a, { B => :a }[2**69 * 2]
    assert_equal [B], [B, 2**69 * 2].uniq
    assert_equal 1, { INT64_MIN => 1 }[-(2**62) * 2]
    assert_equal INT64_MIN.hash, (-(2**63)).hash
    assert B.frozen?
  end

  def test_sort_min_max_clamp_and_between
    assert_equal [-B, 0.5, 1, B, 2**71], [B, 1, -B, 0.5, 2**71].sort
    assert_equal [2**71, -B], [[B, 1, -B, 2**71].max, [B, 1, -B, 2**71].min]
    assert_equal [1, B], [B, 1].minmax
    assert_equal [B, 3, 2], [3, B, 2].sort { |a, b| b <=> a }
    assert_equal [B, 3, 2], [3, B, 2].sort_by { |x| -x }
    assert_equal B, [3, B, 2].max_by { |x| x }
    assert_equal [B, 2**71, 2], [5.clamp(B, 2**71), (2**72).clamp(B, 2**71), B.clamp(1, 2)]
    assert_equal [true, false], [B.between?(1, 2**71), 3.between?(B, 2**71)]
  end

  def test_division_family
    assert_equal [393530540239137101141, -393530540239137101142, 1, -2], [B / 3, B / -3, B % 3, B % -3]
    assert_equal [[393530540239137101141, 1], [32, 0]], [B.divmod(3), B.divmod(2**65)]
    assert_equal [[0, 7], [-1, B - 7], B - 7, 0, -1], [7.divmod(B), -7.divmod(B), -7 % B, 7 / B, -7 / B]
    assert_equal [393530540239137101141, 0, -1], [B.div(3), 7.div(B), -7.div(B)]
    assert_equal [1, -1, 7], [B.remainder(-3), (-B).remainder(3), 7.remainder(B)]
    assert_equal [2**63, 0], INT64_MIN.divmod(-1)
    assert_equal 2**63, INT64_MIN / -1
    assert_equal 472236648286964547584, B.div(2.5)
    assert_equal [2.0**69, 1.0, 0.5], [B / 2.0, B % 1.5, (-B) % 1.5]
    assert_equal [787061080478274158592, 1.0], B.divmod(1.5)
    assert_equal Float::INFINITY, B / 0.0
    [-> { B / 0 }, -> { B % 0 }, -> { B.divmod(0) }, -> { B.div(0) }, -> { 7 / (B - B) }].each do |l|
      assert_raise(ZeroDivisionError) { l.call }
    end
  end

  def test_fdiv_keeps_exact_quotients_exact
    assert_equal [2.0, 10.0], [B.fdiv(2**69), (10**30).fdiv(10**29)]
    assert_equal [Float::INFINITY, -Float::INFINITY], [B.fdiv(0), (-B).fdiv(0)]
    assert_equal 0.5, (2**69).fdiv(B)
  end

  def test_abs_negation_and_bit_queries
    assert_equal [B, B, -B], [(-B).abs, B.abs, -B]
    assert_equal [71, 70, 65, 64, 64, 63], [B.bit_length, (-B).bit_length, (2**64).bit_length,
                                            (-(2**64)).bit_length, (2**63).bit_length, INT64_MIN.bit_length]
    assert_equal [true, false, true, true], [B.even?, B.odd?, (B + 1).odd?, (-B - 1).odd?]
    assert_equal [B + 1, B - 1, INT64_MIN - 1], [B.succ, B.pred, INT64_MIN.pred]
    assert_equal [true, true, false], [B.positive?, (-B).negative?, B.zero?]
    assert_equal [true, true], [B.integer?, B.finite?]
  end

  def test_gcd_lcm_pow_and_digits
    assert_equal [2**40, 2, 2], [B.gcd(2**40 * 3), B.gcd(6), 6.gcd(B)]
    assert_equal [3 * B, 3 * 2**62, 2**63], [B.lcm(3), (2**62).lcm(3), INT64_MIN.gcd(0)]
    assert_equal [4, 3 * B], B.gcdlcm(12)
    assert_equal [267650600228229401496703205369, 24, -976], [2.pow(100, 10**30 + 7), B.pow(3, 1000), B.pow(3, -1000)]
    assert_equal [481, 243, B - 243], [3.pow(B, 1000), 3.pow(5, B), (-3).pow(5, B)]
    assert_equal 95942358336098822316, B.pow(2**65, 10**20 + 1)
    assert_raise(RangeError) { 2.pow(-1, B) }
    assert_raise(ZeroDivisionError) { 2.pow(B, 0) }
    assert_equal [4, 2, 4, 3, 0, 3, 1, 1, 4, 7, 1, 7, 0, 2, 6, 1, 9, 5, 0, 8, 1, 1], B.digits
    assert_equal [0] * 17 + [4], B.digits(16)
    assert_equal [0, 2**30], B.digits(2**40)
    assert_equal [100], 100.digits(B)
    assert_raise(Math::DomainError) { (-B).digits }
  end

  def test_rounding_to_negative_digits
    assert_equal [1180591620717411300000, 1180591620717411300000, 1180591620717411304000],
                 [B.round(-5), B.floor(-5), B.ceil(-3)]
    assert_equal [-1180591620717411300000, -1180591620717411400000, 1180591620717411300000],
                 [(-B).round(-5), (-B).floor(-5), B.truncate(-5)]
    assert_equal [10**21 + 1000, -(10**21) - 1000], [(10**21 + 500).round(-3), (-(10**21) - 500).round(-3)]
    assert_equal [2000, -2000, 1000, 1000], [1500.round(-3), -1500.round(-3), 1499.round(-3), 1000.ceil(-3)]
  end

  def test_sprintf_formats_bignums
    assert_equal "1180591620717411303424 400000000000000000 200000000000000000000000 1180591620717411303424",
                 format("%d %x %o %s", B, B, B, B)
    assert_equal "1" + "0" * 70, format("%b", B)
    assert_equal "        1180591620717411303424|1180591620717411303424        |", format("%30d|%-30d|", B, B)
    assert_equal ["000000001180591620717411303424", "+1180591620717411303424", " 1180591620717411303424"],
                 [format("%030d", B), format("%+d", B), format("% d", B)]
    assert_equal ["-1180591620717411303424", "..fc00000000000000000", "-400000000000000000", "..7600000000000000000000000"],
                 [format("%d", -B), format("%x", -B), format("%+x", -B), format("%o", -B)]
    assert_equal ["0x400000000000000000", "0200000000000000000000000", "0X400000000000000000"],
                 [format("%#x", B), format("%#o", B), format("%#X", B)]
    assert_equal ["     0001180591620717411303424", "9223372036854775808", "ffffffffffffffff"],
                 [format("%30.25d", B), format("%d", 2**63), format("%x", 2**64 - 1)]
    assert_equal "1180591620717411303424|-1180591620717411303424|", format("%5d|%-5d|", B, -B)
    assert_equal "1180591620717411303424", "%d" % 2.0**70
  end

  def test_ranges_of_bignums
    assert_equal [B, B - 1, B + 1, 0], [(1..B).size, (1...B).size, (B..2**71).size, (B...B).size]
    assert_equal Float::INFINITY, (B..).size
    assert_equal [B, B + 1, B + 2, B + 3], (B..B + 3).to_a
    assert_equal 4 * B + 6, (B..B + 3).sum
    assert_equal 2**139 + 2**69, (1..B).sum
    assert_equal [true, true, false], [(1..B).include?(2**69), (B..B + 3) === B + 1, (1..B).cover?(2**71)]
    assert_equal [[1, 2, 3], B, 1, B], [(1..B).first(3), (1..B).last, (1..B).min, (1..B).max]
    assert_equal [[B, B + 1], [B + 2, B + 3]], (B..B + 3).each_slice(2).to_a
    got = []
    (B..B + 2).each { |x| got << x }
    assert_equal [B, B + 1, B + 2], got
  end

  def test_pack_and_unpack_64_bit_integers
    assert_equal [255] * 8, [2**64 - 1].pack("Q").bytes
    assert_equal [255] * 7 + [127], [2**63 - 1].pack("q").bytes
    assert_equal [0] * 7 + [128], [INT64_MIN].pack("q").bytes
    assert_equal [255] * 8, [2**64 - 1].pack("Q>").bytes
    assert_equal [[0] * 8, [0] * 8], [[2**64].pack("Q").bytes, [B].pack("Q").bytes]   # modulo 2**64, as CRuby
    assert_equal [2**64 - 1, INT64_MIN], [[2**64 - 1].pack("Q").unpack1("Q"), [2**63].pack("Q").unpack1("q")]
    assert_equal [2**64 - 1], "\xff\xff\xff\xff\xff\xff\xff\xff".unpack("Q")
  end

  # `x += 1` on a local compiles to an in-place add; for a Bignum (or any receiver but a fixnum or
  # Float) mruby 3.3.0 passed the argument in the next local's register
  def test_incrementing_a_bignum_local_keeps_the_next_local
    x = B
    y = 5
    x += 1
    x -= 3
    assert_equal [B - 2, 5], [x, y]
  end

  def test_incrementing_a_time_local_keeps_the_next_local
    t = Time.at(0)
    u = 5
    t += 1
    assert_equal [1, 5], [t.to_i, u]
  end

  def test_rational_with_a_bignum_part
    assert_equal [B, 3], [Rational(B, 3).numerator, Rational(B, 3).denominator]
    assert_equal Rational(B, 1), B.to_r
    assert_equal Rational(B, 3), B.quo(3)
  end
end
