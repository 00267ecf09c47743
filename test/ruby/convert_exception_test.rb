# Kernel#Integer and #Float with exception: false (CRuby 3.1's results; passes there too).

class ConvertExceptionTest < MnTest::Case
  def test_integer
    assert_nil Integer("z", exception: false)
    assert_nil Integer(nil, exception: false)
    assert_nil Integer(Object.new, exception: false)
    assert_nil Integer(Float::NAN, exception: false)
    assert_equal 255, Integer("ff", 16, exception: false)
    assert_equal 12, Integer("12", exception: false)
    assert_equal 12, Integer("12")
    assert_raise(ArgumentError) { Integer("z") }
    assert_raise(TypeError) { Integer(nil) }
  end

  def test_float
    assert_nil Float("x", exception: false)
    assert_nil Float(nil, exception: false)
    assert_equal 1.5, Float("1.5", exception: false)
    assert_equal 2.0, Float(2)
    assert_raise(ArgumentError) { Float("x") }
  end
end
