# Floats are exact IEEE doubles, as in CRuby (patches/mruby/0016-float-exact.patch): arithmetic,
# the shortest round-trip to_s, correctly rounded reading, and the same behaviour for immediate
# Floats (binary exponents -255..255) and heap Floats (all others), also across threads and ractors.
# Expected values are CRuby 3.1's. test/float-compare.sh compares random cases with CRuby;
# rounding to digits is in rounding_test.rb. Which Floats are heap objects (ObjectSpace counts)
# is mruby's business, not CRuby behaviour, and is not checked here.

class FloatTest < MnTest::Case
  # The bits of a double as 16 hex digits, sign first.
  def bits(x)
    [x].pack("E").unpack("VV").map { |h| "%08x" % h }.reverse.join
  end

  # Immediate and heap Floats (see the patch header); the second list straddles the boundary.
  HEAP = [1e300, -1e300, 1e-300, 5e-324, Float::MAX, Float::MIN, 2.0**256, 2.0**-256, Float::INFINITY]
  IMMEDIATE = [1.5, -1.5, 0.0, -0.0, 1e77, 1e-77, 2.0**255, 2.0**-255, 0.1]

  def test_arithmetic_is_exact_double_arithmetic
    refute 1.0000000000000002 == 1.0
    assert_equal 0.30000000000000004, 0.1 + 0.2
    refute 0.1 + 0.2 == 0.3
    assert_equal 1.0, (1.0 / 3) * 3
    assert 1.0 + Float::EPSILON > 1.0
    assert_equal Float::EPSILON, 1.0000000000000002 - 1.0
    assert_equal "3fb999999999999a", bits(0.1)
    assert_equal "3fd5555555555555", bits(1.0 / 3)
  end

  def test_to_s_and_inspect_are_the_shortest_round_trip_digits
    {
      0.1 + 0.2 => "0.30000000000000004", 1.0 / 3 => "0.3333333333333333", 1e20 => "1.0e+20",
      1e16 => "1.0e+16", 1e15 => "1.0e+15", 1e14 => "100000000000000.0", 1.0e-5 => "1.0e-05",
      0.0001 => "0.0001", Float::MAX => "1.7976931348623157e+308",
      Float::MIN => "2.2250738585072014e-308", 5e-324 => "5.0e-324", 100.0 => "100.0",
      1.5e300 => "1.5e+300", -1.5e300 => "-1.5e+300", 2.5 => "2.5", -2.5 => "-2.5",
      123456789.123456789 => "123456789.12345679", 9007199254740993.0 => "9.007199254740992e+15",
      1111111111111111.1 => "1111111111111111.1", 2095223180388999.5 => "2095223180388999.5",
      1.2345e15 => "1.2345e+15", 0.00012345 => "0.00012345", 1.0e-100 => "1.0e-100",
      2.0**-1074 => "5.0e-324", 2.0**1023 => "8.98846567431158e+307", 2.0**-1022 => "2.2250738585072014e-308",
      2.0**-255 => "1.727233711018889e-77", 2.0**256 => "1.157920892373162e+77",
      Float::INFINITY => "Infinity", -Float::INFINITY => "-Infinity",
    }.each do |x, s|
      assert_equal s, x.to_s
      assert_equal s, x.inspect
    end
  end

  def test_to_s_of_zeros_nan_and_in_strings
    assert_equal "NaN", (0.0 / 0.0).to_s
    assert_equal "0.0", 0.0.to_s
    assert_equal "-0.0", -0.0.to_s
    assert_equal "-0.0", (-0.0).inspect
    assert_equal "0.30000000000000004", "#{0.1 + 0.2}"
    assert_equal "[1.0e+300, 0.1, -0.0]", [1e300, 0.1, -0.0].inspect
  end

  def test_strings_read_as_the_correctly_rounded_double
    {
      "0.1" => "3fb999999999999a", "2.2250738585072011e-308" => "000fffffffffffff",
      "1.7976931348623157e308" => "7fefffffffffffff", "4.9e-324" => "0000000000000001",
      "0.30000000000000004" => "3fd3333333333334", "2.4703282292062328e-324" => "0000000000000001",
      "2.4703282292062327e-324" => "0000000000000000", "1.7976931348623158e308" => "7fefffffffffffff",
      "1.7976931348623159e308" => "7ff0000000000000", "9007199254740993" => "4340000000000000",
      "9007199254740993.0000000000000000000000001" => "4340000000000001",
      "1e0 " => "3ff0000000000000", "-0.0" => "8000000000000000", "1_000.5" => "408f440000000000",
      "123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890" => "526f07c2fae1ab2c",
    }.each do |s, b|
      assert_equal b, bits(s.to_f), "#{s}.to_f"
      assert_equal b, bits(Float(s)), "Float(#{s})"
    end
  end

  def test_literals_read_as_the_correctly_rounded_double
    assert_equal "3fb999999999999a", bits(0.1)
    assert_equal "000fffffffffffff", bits(2.2250738585072011e-308)
    assert_equal "7fefffffffffffff", bits(1.7976931348623157e308)
    assert_equal "0000000000000001", bits(4.9e-324)
    assert_equal "3fd3333333333334", bits(0.30000000000000004)
    assert_equal "800fffffffffffff", bits(-2.2250738585072011e-308)
  end

  def test_string_to_f_takes_a_dot_or_exponent_only_with_digits_after_it
    assert_equal Float::INFINITY, "1e400".to_f
    assert_equal(-Float::INFINITY, "-1e400".to_f)
    assert_equal 0.5, ".5".to_f
    assert_equal 1.0, "1.".to_f
    assert_equal 1.0, "1.e5".to_f
    assert_equal 1.0, "1e".to_f
    assert_equal 100000.0, "1e5x".to_f
    ["1.", "1e", "1.e5"].each { |s| assert_raise(ArgumentError) { Float(s) } }
  end

  def test_to_s_reads_back_as_the_same_double
    [0.1, 1.0 / 3, 1e300 / 7, 5e-324, 2.0**-1060 * 3].each { |x| assert_equal x, x.to_s.to_f }
  end

  def test_heap_and_immediate_floats_behave_alike
    (HEAP + IMMEDIATE).each do |x|
      y = x * 1.0 # a fresh Float of the same value
      assert_equal x, x.to_s.to_f unless x.infinite?
      assert_equal Float, x.class
      assert x.is_a?(Float) && Float === x && x.kind_of?(Numeric)
      assert x == y
      assert x.eql?(y)
      assert_equal x.hash, y.hash
      assert_equal :v, { x => :v }[y]
      assert x.frozen?
      assert x.dup.eql?(x) && x.clone.eql?(x)
      assert_equal 0, x <=> y
      assert_equal 0.0, x - y unless x.infinite?
      assert_equal :f, (case x when Float then :f else :o end)
    end
  end

  def test_no_singleton_methods_on_floats
    (HEAP + IMMEDIATE).each do |x|
      assert_raise(TypeError) { def x.foo; end }
    end
  end

  def test_instance_variables_on_floats_raise_frozen_error
    (HEAP + IMMEDIATE).each do |x|
      e = assert_raise(FrozenError) { x.instance_variable_set(:@a, 1) }
      assert_equal "can't modify frozen Float: #{x.inspect}", e.message
      assert_nil x.instance_variable_get(:@a)
    end
  end

  def test_instance_variables_on_other_immediates_raise_frozen_error
    [1, :a, nil, true, false].each do |x|
      e = assert_raise(FrozenError) { x.instance_variable_set(:@a, 1) }
      assert_equal "can't modify frozen #{x.class}: #{x.inspect}", e.message
    end
    assert_raise(NameError) { 1.5.instance_variable_set(:foo, 1) }
  end

  def test_zero_and_negative_zero_are_one_hash_key
    assert 0.0.eql?(-0.0)
    assert_equal 0.0.hash, -0.0.hash
    assert_equal 1, { 0.0 => 1 }[-0.0]
  end

  def test_heap_floats_as_hash_keys_and_in_uniq
    h = {}
    100.times { |i| h[1e300 * i] = i }
    assert_equal 42, h[1e300 * 42]
    assert_equal 1, [1e300, "1e300".to_f, 1e300 * 1.0].uniq.size
  end

  def test_nan_is_not_equal_to_itself
    n = Float::NAN
    refute n == n
    assert n != n
    refute n.send(:==, n)
    refute n.eql?(n)
    refute (0.0 / 0.0) == (0.0 / 0.0)
    refute Float::NAN == Float::NAN
    assert Float::NAN != Float::NAN
  end

  def test_collections_find_the_same_nan_object
    n = 0.0 / 0.0
    assert [n].include?(n)
    assert_equal 0, [n].index(n)
    assert [n] == [n]
    assert_equal 1, [n].count(n)
    assert_equal 1, [n, n].uniq.size
    assert_equal [], [n] - [n]
    assert_equal 1, { n => 1 }[n]
    assert_nil({ n => 1 }[0.0 / 0.0])
  end

  def test_heap_floats_with_integers_and_rationals
    assert 10**20 < 1e300
    assert_equal 1, 1e300.divmod(7e299)[0]
    assert_equal Rational(1e-300), 1e-300.to_r
    assert_equal 4611686018427387904, (2**62).dup
  end

  def test_to_i_of_big_floats_is_exact
    assert_equal 100000000000000000000, 1e20.to_i
    assert_equal 10**22, 1e22.to_i
    assert_equal 99999999999999991611392, 1e23.to_i
    assert_equal(-10000000000000000905969664, (-1e25).to_i)
    assert_equal 18446744073709551616, (2.0**64).to_i
    assert_equal 1180591620717411565568, (2.0**70 + 2.0**18).to_i
    assert_equal 10000000000000000000, 1.0e19.to_i
    assert_equal 309, Float::MAX.to_i.to_s.size
    assert_equal "1000000000000000052504760255204420248704468581108159154915854115", 1e300.to_i.to_s[0, 64]
    assert_equal 150000000000000000000, 1.5e20.truncate
    [1e20.floor, 1e20.ceil, 1e20.round].each { |i| assert_equal 100000000000000000000, i }
    assert_raise(FloatDomainError) { Float::INFINITY.to_i }
    assert_raise(FloatDomainError) { (0.0 / 0.0).to_i }
  end

  def test_format_e_f_g_are_correctly_rounded
    assert_equal "1.000000e+300", "%e" % 1e300
    assert_equal "1.0000000000000001e+300", "%.17g" % 1e300
    assert_equal "4.941e-324", "%.3e" % 5e-324
    assert_equal "0.000000e+00", "%e" % 0.0
    assert_equal "1.23e+04  |", "%-10.2e|" % 12345.678
    assert_equal "100000000000000000000.000000", "%f" % 1e20
    assert_equal "0.10000000000000000555", "%.20f" % 0.1
    assert_equal ["0", "2", "2", "1.00"], ["%.0f" % 0.5, "%.0f" % 1.5, "%.0f" % 2.5, "%.2f" % 1.005]
    assert_equal "-0.000000", "%f" % -0.0
    assert_equal "+2.2", "%+.1f" % 2.25
    assert_equal "    3.1416|", "%10.4f|" % Math::PI
  end

  def test_format_keeps_sign_and_zero_padding
    assert_equal "-003.142", "%08.3f" % -3.14159
  end

  def test_format_g_chooses_fixed_or_exponent_as_c
    assert_equal "1e-05", "%g" % 1e-5
    assert_equal "1.23457e+08", "%g" % 123456789.0
    assert_equal "100000", "%g" % 100000.0
    assert_equal "1e+06", "%g" % 1000000.0
    assert_equal "0.3333333333", "%.10g" % (1.0 / 3)
  end

  def test_heap_floats_survive_gc
    arr = Array.new(20000) { |i| 1e300 * (i + 1) }
    GC.start
    assert (0...arr.size).all? { |i| arr[i] == 1e300 * (i + 1) }
    hsh = {}
    5000.times { |i| hsh[1e-300 * (i + 1)] = i }
    GC.start
    assert (0...5000).all? { |i| hsh[1e-300 * (i + 1)] == i }
  end

  # On mnrb the VM makes these heap floats without a GC arena slot each (see the patch header).
  def test_a_loop_of_heap_float_arithmetic
    x = 1e300
    i = 0
    while i < 300_000
      x *= 1.0000001
      i += 1
    end
    assert_equal "1.0304545324258443e+300", x.to_s
    assert_equal "1.0304545324258443e+300".to_f, x
  end

  def test_floats_cross_ractors
    assert_equal 2e300, Ractor.new(1e300) { |x| x * 2 }.take
    assert_equal [5e-324, 0.1, -0.0, Float::MAX],
                 Ractor.new([5e-324, 0.1, -0.0, Float::MAX]) { |a| a }.take
    r = Ractor.new { Ractor.receive.map { |x| x / 3 } }
    r.send([1e300, 1.0, 2.0**-1074 * 9])
    assert_equal [3.3333333333333335e+299, 0.3333333333333333, 1.5e-323], r.take
    got = Ractor.new { [0.1 + 0.2, (1e300 * 10).to_s, { 1e-300 => 1 }, 0.0 / 0.0] }.take
    assert_equal [0.30000000000000004, "1.0e+301", { 1e-300 => 1 }], got[0, 3]
    assert got[3].nan?
  end

  def test_floats_in_concurrent_threads
    sums = Array.new(4) do |t|
      Thread.new do
        s = 0.0
        20_000.times { |i| s += 1e300 / (i + t + 1) + 0.1 }
        s
      end
    end.map(&:value)
    expected = Array.new(4) do |t|
      s = 0.0
      20_000.times { |i| s += 1e300 / (i + t + 1) + 0.1 }
      s
    end
    assert_equal expected, sums
    assert_equal expected.map(&:to_s), sums.map(&:to_s)
  end
end
