# Hash/String/Array/Integer/Regexp.try_convert, Hash#assoc, #rassoc, #to_hash, with CRuby 3.1's
# results and messages (this file passes on CRuby 3.1 too).

class TryConvertTest < MnTest::Case
  class Conv
    def initialize(meth, val)
      define_singleton_method(meth) { val }
    end
  end

  def test_try_convert_returns_the_object_or_its_conversion
    h = { a: 1 }
    assert_same h, Hash.try_convert(h)
    assert_equal({ b: 2 }, Hash.try_convert(Conv.new(:to_hash, { b: 2 })))
    assert_nil Hash.try_convert(Object.new)
    assert_nil Hash.try_convert(nil)
    assert_equal "s", String.try_convert(Conv.new(:to_str, "s"))
    assert_nil String.try_convert(:sym)
    assert_equal [1], Array.try_convert(Conv.new(:to_ary, [1]))
    assert_nil Array.try_convert(1..2)
    assert_equal 3, Integer.try_convert(3)
    assert_equal 1, Integer.try_convert(1.5)
    assert_nil Integer.try_convert("1")
  end

  def test_a_conversion_giving_nil_is_nil
    assert_nil String.try_convert(Conv.new(:to_str, nil))
    assert_nil Array.try_convert(Conv.new(:to_ary, nil))
  end

  def test_a_conversion_of_the_wrong_class_is_a_type_error
    e = assert_raise(TypeError) { Hash.try_convert(Conv.new(:to_hash, "x")) }
    assert_equal "can't convert TryConvertTest::Conv to Hash (TryConvertTest::Conv#to_hash gives String)", e.message
    e = assert_raise(TypeError) { Array.try_convert(Conv.new(:to_ary, 1)) }
    assert_equal "can't convert TryConvertTest::Conv to Array (TryConvertTest::Conv#to_ary gives Integer)", e.message
  end

  def test_hash_assoc_rassoc_to_hash
    h = { "a" => 1, b: 2, 3 => 2 }
    assert_equal ["a", 1], h.assoc("a")
    assert_equal [:b, 2], h.assoc(:b)
    assert_nil h.assoc(:zz)
    assert_equal [:b, 2], h.rassoc(2)
    assert_nil h.rassoc(9)
    assert_same h, h.to_hash
    assert_equal [nil, nil], { nil => nil }.assoc(nil)
  end
end
