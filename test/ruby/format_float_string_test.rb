# format's float directives read a String through Float(), as CRuby's rb_Float: "1.5" is 1.5,
# "1e2" is 100.0, a String that is not a number raises ArgumentError. Expected values: CRuby 3.1
# and 3.3.8.

class FormatFloatStringTest < MnTest::Case
  def test_format_float_from_string
    assert_equal "1.500000", format("%f", "1.5")
    assert_equal "100.00", format("%.2f", "1e2")
    assert_equal "1.5e+00", format("%.1e", "1.5")
    assert_equal "0.25", format("%g", "0.25")
  end

  def test_format_float_from_bad_string_raises
    assert_raise(ArgumentError) { format("%f", "abc") }
    assert_raise(ArgumentError) { format("%f", "") }
  end
end
