# Kernel#format / String#% conversions as CRuby (mruby-sprintf with mnrb's patches 0016, 0215):
# widths, flags and precisions of the integer, float and string conversions.

class FormatTest < MnTest::Case
  def test_zero_flag_before_a_nine
    assert_equal "099.5", "%05.1f" % 99.456
    assert_equal "009.50", "%06.2f" % 9.5
    assert_equal "+09.5", "%+05.1f" % 9.5
    assert_equal "-09.5", "%05.1f" % -9.5
    assert_equal "0009e+00", "%08.0e" % 9.0
    assert_equal "00009", "%05g" % 9.0
  end

  def test_float_flags_and_widths
    assert_equal "-003.142", "%08.3f" % -3.14159
    assert_equal "+03.14", "%+06.2f" % 3.14159
    assert_equal "1.23e+03|", "%-8.2e|" % 1234.5
    assert_equal "000003.142", "%010.4g" % 3.14159
    assert_equal " 002.50", "% 07.2f" % 2.5
    assert_equal " 12.3%", "%5.1f%%" % 12.34
    assert_equal "  Inf", "%05.1f" % Float::INFINITY
    assert_equal "0.000000e+00", "%e" % 0.0
    assert_equal "1.23457e+08", "%g" % 123456789.0
  end

  def test_integer_and_string_conversions
    assert_equal "-0042", "%05d" % -42
    assert_equal "0xff 010 0b101", "%#x %#o %#b" % [255, 8, 5]
    assert_equal "..f01", "%x" % -255
    assert_equal "0000000042", "%.10d" % 42
    assert_equal "   ab", "%05s" % "ab"
    assert_equal "abc", "%.3s" % "abcdef"
    assert_equal "AB", "%c%c" % [65, "BC"]
  end
end
