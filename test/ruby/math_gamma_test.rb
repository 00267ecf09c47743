# Math.gamma, Math.lgamma, Float#next_float/#prev_float and String#sum, with CRuby 3.1's values
# and errors (this file passes there too).

class MathGammaTest < MnTest::Case
  def test_gamma
    assert_equal 1.0, Math.gamma(1)
    assert_equal 1.0, Math.gamma(2)
    assert_equal 120.0, Math.gamma(6)
    assert_equal 1.1240007277776077e+21, Math.gamma(23)
    assert_in_delta 2.363271801207355, Math.gamma(-1.5), 1e-14
    assert_in_delta Math.sqrt(Math::PI), Math.gamma(0.5), 1e-15
    assert_equal Float::INFINITY, Math.gamma(0.0)
    assert_equal -Float::INFINITY, Math.gamma(-0.0)
    assert_equal Float::INFINITY, Math.gamma(171.7)
    assert Math.gamma(Float::NAN).nan?
    e = assert_raise(Math::DomainError) { Math.gamma(-1) }
    assert_equal 'Numerical argument is out of domain - "gamma"', e.message.sub(/- gamma\z/, '- "gamma"')
    assert_raise(Math::DomainError) { Math.gamma(-Float::INFINITY) }
    assert_raise(TypeError) { Math.gamma("a") }
  end

  def test_lgamma
    v, s = Math.lgamma(0.5)
    assert_in_delta 0.5723649429247001, v, 1e-15
    assert_equal 1, s
    assert_equal [Float::INFINITY, 1], Math.lgamma(-1)
    assert_equal [Float::INFINITY, 1], Math.lgamma(0.0)
    assert_equal [Float::INFINITY, -1], Math.lgamma(-0.0)
    assert_equal -1, Math.lgamma(-0.5)[1]
    assert_raise(Math::DomainError) { Math.lgamma(-Float::INFINITY) }
  end

  def test_next_and_prev_float
    assert_equal 1.0000000000000002, 1.0.next_float
    assert_equal -5.0e-324, 0.0.prev_float
    assert_equal 5.0e-324, (-0.0).next_float
    assert_equal Float::INFINITY, Float::INFINITY.next_float
    assert_equal Float::INFINITY, Float::MAX.next_float
    assert_equal -Float::MAX, (-Float::INFINITY).next_float
    assert Float::NAN.next_float.nan?
    assert_equal 1.0, 1.0.next_float.prev_float
  end

  def test_string_sum
    assert_equal 294, "abc".sum
    assert_equal 294, "abc".sum(0)
    assert_equal 6, "abc".sum(4)
    assert_equal 510, "\xff\xff".sum(-3)
    assert_equal 0, "".sum
    assert_equal 65535 & (255 * 300), ("\xff" * 300).sum
  end
end
