# TypeError messages of implicit conversions, in CRuby's words (patches/mruby/0027): what a C method
# says when an argument is not a String, Array, Hash, Integer or Float and cannot become one.
class ConversionMessagesTest < MnTest::Case
  def message
    yield
    flunk "no TypeError"
  rescue TypeError => e
    e.message
  end

  def test_implicit_conversions_name_the_class_and_the_target
    assert_equal "no implicit conversion of nil into Array", message { [1] + nil }
    assert_equal "no implicit conversion of Integer into String", message { "a" + 1 }
    assert_equal "no implicit conversion of Object into String", message { "a" + Object.new }
    assert_equal "no implicit conversion of Object into Array", message { [1].concat(Object.new) }
    assert_equal "no implicit conversion of Integer into Hash", message { {}.merge(1) }
    assert_equal "no implicit conversion of String into Integer", message { [1, 2].first("x") }
    assert_equal "no implicit conversion of nil into String", message { File.basename(nil) }
  end

  def test_float_conversions_say_cant_convert
    assert_equal "can't convert nil into Float", message { Math.sqrt(nil) }
    assert_equal "can't convert String into Float", message { Math.sqrt("x") }
  end

  class ToInt; def to_int; 5; end; end
  class ToI; def to_i; 6; end; end
  class ToIntString; def to_int; "x"; end; end

  def test_kernel_integer_converts_with_to_int_then_to_i
    assert_equal 5, Integer(ToInt.new)
    assert_equal 6, Integer(ToI.new)
    assert_equal 7, Integer(Time.at(7))
    assert_equal 3, Integer(Rational(7, 2))
  end

  def test_kernel_integer_of_an_object_that_does_not_convert
    assert_equal "can't convert Object into Integer", message { Integer(Object.new) }
    assert_equal "can't convert Symbol into Integer", message { Integer(:a) }
    assert_equal "can't convert Array into Integer", message { Integer([]) }
    assert_equal "can't convert #{ToIntString.name} into Integer", message { Integer(ToIntString.new) }
    assert_equal "can't convert nil into Integer", message { Integer(nil) }
    assert_nil Integer(Object.new, exception: false)
  end

  def argument_message
    yield
    flunk "no ArgumentError"
  rescue ArgumentError => e
    e.message
  end

  def test_kernel_integer_and_float_of_a_bad_string
    assert_equal 'invalid value for Integer(): "zz"', argument_message { Integer("zz") }
    assert_equal 'invalid value for Integer(): "zz"', argument_message { Integer("zz", 16) }
    assert_equal 'invalid value for Integer(): "1_000_"', argument_message { Integer("1_000_") }
    assert_equal 'invalid value for Integer(): ""', argument_message { Integer("") }
    assert_equal 'invalid value for Float(): "1.5x"', argument_message { Float("1.5x") }
    assert_equal 'invalid value for Float(): "1e"', argument_message { Float("1e") }
    assert_equal 'invalid value for Float(): ""', argument_message { Float("") }
  end
end
