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
end
