# Regexp literals (CRuby): a literal without interpolation is one frozen Regexp, whatever the
# number of times it is evaluated, with its flags. mnrb evaluates it through a per-call-site cache
# (patches/mruby/0007); these tests pin what that cache must get right.

class RegexpLiteralTest < MnTest::Case
  def test_each_flag_combination_keeps_its_options
    assert_equal 0, //.options
    assert_equal Regexp::IGNORECASE, /a/i.options
    assert_equal Regexp::EXTENDED, /a/x.options
    assert_equal Regexp::MULTILINE, /a/m.options
    assert_equal Regexp::IGNORECASE | Regexp::EXTENDED | Regexp::MULTILINE, /a/mix.options
  end

  def test_a_literal_in_a_loop_is_one_frozen_object
    objs = 3.times.map { /lit(e)ral/i }
    assert objs.all? { |r| r.equal?(objs[0]) }
    assert objs[0].frozen?
    assert_equal "litERAL", objs[0].match("a litERAL b")[0]
  end

  def test_the_source_keeps_escapes_and_slashes
    assert_equal "a/b\\d+", /a\/b\d+/.source   # CRuby drops the escape of the delimiter
    assert_equal "\\A\\s*\\z", /\A\s*\z/.source
    assert_equal "é+", /é+/.source
  end

  def test_literals_from_many_evals_are_each_their_own
    # eval'd code comes and goes: a new site may take a freed one's place; it must not get the
    # old site's Regexp
    sources = 60.times.map { |i| eval("/src#{i % 7}x/").source }
    assert_equal 60.times.map { |i| "src#{i % 7}x" }, sources
    opts = 20.times.map { |i| eval(i.even? ? "/same/i" : "/same/").options }
    assert_equal 20.times.map { |i| i.even? ? Regexp::IGNORECASE : 0 }, opts
  end

  def test_an_interpolated_literal_follows_its_value
    assert_equal %w(a1 a2 a3), [1, 2, 3].map { |i| /a#{i}/.source }
  end

  def test_a_bad_literal_raises_regexp_error_when_evaluated
    mnrb_only   # CRuby rejects it when parsing (SyntaxError)
    assert_raise(RegexpError) { eval("/(/") }
  end
end
