# require "abbrev" as CRuby's: Abbrev.abbrev and Array#abbrev give every prefix only one word has,
# and each word itself, in CRuby's order; a String or Regexp pattern narrows them.
require "abbrev"

class AbbrevLibTest < MnTest::Case
  def test_unique_prefixes_and_the_words
    assert_equal({ "ruby" => "ruby", "rub" => "ruby", "rules" => "rules", "rule" => "rules",
                   "rul" => "rules" }, Abbrev.abbrev(%w(ruby rules)))
    assert_equal %w(ruby rub rules rule rul), Abbrev.abbrev(%w(ruby rules)).keys
  end

  def test_a_word_that_prefixes_another_stays
    h = %w(a ab abc).abbrev
    assert_equal %w(abc a ab), h.keys
    assert_equal({ "abc" => "abc", "a" => "a", "ab" => "ab" }, h)
  end

  def test_duplicated_words
    assert_equal %w(cone con co car), %w(car car cone).abbrev.keys
  end

  def test_patterns
    assert_equal %w(ruby rub rules rule rul), Abbrev.abbrev(%w(ruby rules), "ru").keys
    assert_equal({ "ruby" => "ruby", "rub" => "ruby" }, Abbrev.abbrev(%w(ruby rules), "rub"))
    assert_equal({ "cone" => "cone", "con" => "cone", "co" => "cone" }, %w(car cone).abbrev(/o/))
  end

  def test_empty
    assert_equal({}, Abbrev.abbrev([]))
    assert_equal({ "" => "" }, Abbrev.abbrev([""]))
  end

  def test_loads_and_works_in_another_ractor
    mnrb_only
    r = Ractor.new do
      require "abbrev"
      %w(list load).abbrev.keys
    end
    assert_equal %w(list lis li load loa lo), r.take
  end
end
