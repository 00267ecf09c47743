# ArgumentError messages for keyword parameters as CRuby (mruby patch 0217): a wrong number of
# positional arguments names the method's required keywords, and a missing keyword lists every
# required keyword not given.

class KeywordErrorsTest < MnTest::Case
  def one(a, b:) = [a, b]
  def two(a, b:, c:, d: 1) = [a, b, c, d]
  def opt(a = 1, b:) = [a, b]
  def rest(*a, b:) = [a, b]
  def none(a, d: 1) = [a, d]

  def message
    yield
    flunk "no ArgumentError"
  rescue ArgumentError => e
    e.message
  end

  def test_wrong_number_names_the_required_keywords
    assert_equal "wrong number of arguments (given 2, expected 1; required keyword: b)", message { one(1, 2) }
    assert_equal "wrong number of arguments (given 0, expected 1; required keyword: b)", message { one }
    assert_equal "wrong number of arguments (given 2, expected 1; required keyword: b)", message { one(1, 2, b: 3) }
    assert_equal "wrong number of arguments (given 0, expected 1; required keywords: b, c)", message { two }
    assert_equal "wrong number of arguments (given 2, expected 1; required keywords: b, c)", message { two(1, 2, b: 1, c: 1) }
    assert_equal "wrong number of arguments (given 3, expected 0..1; required keyword: b)", message { opt(1, 2, 3) }
    assert_equal "wrong number of arguments (given 2, expected 1)", message { none(1, 2) }
  end

  def test_lambdas_and_define_method
    l = ->(a, b:) { }
    assert_equal "wrong number of arguments (given 0, expected 1; required keyword: b)", message { l.call }
    self.class.define_method(:dm) { |a, b:| }
    assert_equal "wrong number of arguments (given 0, expected 1; required keyword: b)", message { dm }
  end

  def test_missing_keywords_are_all_listed
    assert_equal "missing keywords: :b, :c", message { two(1, d: 2) }
    assert_equal "missing keyword: :b", message { two(1, c: 2) }
    assert_equal "missing keyword: :c", message { two(1, b: 2) }
    assert_equal "missing keyword: :b", message { rest(1) }
    assert_equal "missing keyword: :c", message { two(1, b: 1, x: 2) }
    assert_equal "missing keywords: :b, :c", message { two(1, x: 2, y: 3) }
    assert_equal "missing keywords: :b, :c", message { two(1, **{}) }
  end

  def test_good_calls_are_unchanged
    assert_equal [1, 2, 3, 1], two(1, c: 3, b: 2)
    assert_equal [1, 2], opt(b: 2)
    assert_equal [[1, 2], 3], rest(1, 2, b: 3)
  end
end
