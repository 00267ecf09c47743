# format's %a and %A (a Float in hexadecimal) as CRuby writes them: normalized subnormals, the
# fraction's trailing zeros dropped, precision rounding half to even, flags and width. mruby raised
# "malformed format string - %a". Expectations run on CRuby 3.3.8 and 3.1 (patches/mruby/0239).
class FormatHexFloatTest < MnTest::Case
  def test_plain
    assert_equal ["0x1p+0", "-0x0p+0", "0x1.999999999999ap-4", "0x1.8p+1", "0x1.fffffffffffffp+1023"],
                 [format("%a", 1.0), format("%a", -0.0), format("%a", 0.1), format("%a", 3), format("%a", Float::MAX)]
  end

  def test_subnormals_are_normalized
    assert_equal ["0x1p-1074", "0x1p-1022"], [format("%a", 5e-324), format("%a", 2.2250738585072014e-308)]
  end

  def test_uppercase
    assert_equal "   0X1.FFP+7", format("%12A", 255.5)
  end

  def test_precision_rounds_half_to_even
    assert_equal ["0x1p+1", "0x1p+1", "0x1.0p+0", "0x1.2p+0", "0x1.0p+1", "0x1.99ap-4"],
                 [format("%.0a", 1.5), format("%.0a", 2.5), format("%.1a", 1.03125), format("%.1a", 1.09375),
                  format("%.1a", 1.96875), format("%.3a", 0.1)]
    assert_equal "0x1.00000000000000000000p+0", format("%.20a", 1.0)
  end

  def test_flags_and_width
    assert_equal ["0x1.p+0", "+0x1p+0", " 0x1p+0", "0x1p+0      |", "-0x000001p+0", "0x1.p+0"],
                 [format("%#a", 1.0), format("%+a", 1.0), format("% a", 1.0), format("%-12a|", 1.0),
                  format("%012a", -1.0), format("%#.0a", 1.0)]
  end

  def test_non_finite_and_conversions
    assert_equal ["NaN", "-Inf    |", "       Inf"], [format("%a", Float::NAN), format("%-8a|", -Float::INFINITY), format("%010a", Float::INFINITY)]
    assert_equal ["0x1p+70", "0x1.5555555555555p-2"], [format("%a", 2**70), format("%a", 1r/3)]
    assert_equal "x=0x1p-1", "x=%a" % 0.5
  end
end
