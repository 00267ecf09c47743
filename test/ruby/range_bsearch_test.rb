# Range#bsearch (CRuby 3.1): find-minimum and find-any modes over Integer, endless, beginless and
# Float ranges; its enumerator and errors (this file passes there too).

class RangeBsearchTest < MnTest::Case
  def test_integer_find_minimum
    assert_equal 4, (1..10).bsearch { |x| x >= 4 }
    assert_equal 10, (1..10).bsearch { |x| x >= 10 }
    assert_nil (1...10).bsearch { |x| x >= 10 }
    assert_nil (1..10).bsearch { |x| x >= 11 }
    assert_equal 1, (1..10).bsearch { true }
    assert_equal -3, (-10..10).bsearch { |x| x >= -3 }
    assert_nil (5..1).bsearch { true }
  end

  def test_integer_find_any
    assert_equal 4, (1..10).bsearch { |x| 4 <=> x }
    assert_nil (1..10).bsearch { |x| 40 <=> x }
    assert_equal 3, (0..100).bsearch { |x| x < 3 ? 1 : x > 3 ? -1 : 0 }
  end

  def test_endless_and_beginless
    assert_equal 1001, (1..).bsearch { |x| x > 1000 }
    assert_equal 2**70, (0..).bsearch { |x| x >= 2**70 }
    assert_equal -1000, (..0).bsearch { |x| x >= -1000 }
    assert_equal 5, (1..).bsearch { |x| 5 <=> x }
  end

  def test_float
    assert_equal 4.5, (1.0..10.0).bsearch { |x| x >= 4.5 }
    assert_equal 1.0, (0.0..Float::INFINITY).bsearch { |x| Math.log(x) >= 0 }
    assert_equal 0.5, (0..1.0).bsearch { |x| x >= 0.5 }
    assert_equal 2.0.prev_float, (0.0...2.0).bsearch { |x| x >= 2.0.prev_float }
    assert_nil (0.0...2.0).bsearch { |x| x >= 2.0 }
    r = (0.0..100.0).bsearch { |x| x * x >= 2.0 }
    assert_in_delta Math.sqrt(2), r, 1e-12
    assert_equal -7.25, (-Float::INFINITY..0.0).bsearch { |x| x >= -7.25 }
    assert_equal 3.0, (1.0..).bsearch { |x| x >= 3 }
  end

  def test_enumerator_and_errors
    en = (1..10).bsearch
    assert_kind_of Enumerator, en
    assert_equal 7, en.each { |x| x >= 7 }
    e = assert_raise(TypeError) { (1..10).bsearch { "a" } }
    assert_equal "wrong argument type String (must be numeric, true, false or nil)", e.message
    e = assert_raise(TypeError) { ("a".."b").bsearch { true } }
    assert_equal "can't do binary search for String", e.message
  end
end
