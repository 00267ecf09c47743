# Math.cbrt (mruby patch 0078): a perfect cube's root is exact, as CRuby's (glibc's cbrt alone gave
# 3.0000000000000004 for 27). Expected values are CRuby 3.1's (this file passes there too).

class MathCbrtTest < MnTest::Case
  def test_perfect_cubes_are_exact
    assert_equal 3.0, Math.cbrt(27)
    assert_equal(-3.0, Math.cbrt(-27))
    assert_equal 10.0, Math.cbrt(1000.0)
    bad = (1..20_000).reject { |i| Math.cbrt(i**3) == i }
    assert_equal [], bad.first(5)
  end

  def test_other_roots_are_the_nearest_float
    assert_equal 1.2599210498948732, Math.cbrt(2)
    assert_equal 1.0e-100, Math.cbrt(1e-300)
    assert_equal 1.7031839360032603e-108, Math.cbrt(5e-324)
    assert_equal 5.643803094122362e+102, Math.cbrt(Float::MAX)
  end

  def test_zeros_infinities_and_nan
    assert_equal "0.0", Math.cbrt(0.0).to_s
    assert_equal "-0.0", Math.cbrt(-0.0).to_s
    assert_equal Float::INFINITY, Math.cbrt(Float::INFINITY)
    assert_equal(-Float::INFINITY, Math.cbrt(-Float::INFINITY))
    assert Math.cbrt(Float::NAN).nan?
  end

  def test_arguments
    assert_equal 2.0, Math.cbrt(8r)
    assert_raise(TypeError) { Math.cbrt("8") }
    assert_raise(TypeError) { Math.cbrt(nil) }
  end
end
