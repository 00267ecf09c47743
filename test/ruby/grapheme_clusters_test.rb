# String#grapheme_clusters and #each_grapheme_cluster on the cases mnrb's reduced rules cover:
# ASCII, CR LF, combining marks, emoji modifiers and ZWJ sequences, flags (CRuby 3.1 agrees).

class GraphemeClustersTest < MnTest::Case
  def test_plain_and_crlf
    assert_equal ["a", "b", "\r\n", "c"], "ab\r\nc".grapheme_clusters
    assert_equal ["\n", "\r"], "\n\r".grapheme_clusters
    assert_equal [], "".grapheme_clusters
  end

  def test_combining_and_emoji
    assert_equal ["e\u0301", "x"], "e\u0301x".grapheme_clusters
    assert_equal ["a\u0308\u0304"], "a\u0308\u0304".grapheme_clusters
    assert_equal ["\u{1F44D}\u{1F3FD}", "!"], "\u{1F44D}\u{1F3FD}!".grapheme_clusters
    family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}"
    assert_equal [family, "a"], "#{family}a".grapheme_clusters
    assert_equal ["\u{1F1EF}\u{1F1F5}", "\u{1F1FA}\u{1F1F8}", "\u{1F1EB}"], "\u{1F1EF}\u{1F1F5}\u{1F1FA}\u{1F1F8}\u{1F1EB}".grapheme_clusters
    assert_equal ["\u2764\uFE0F"], "\u2764\uFE0F".grapheme_clusters
  end

  def test_each_grapheme_cluster
    s = "ae\u0301"
    got = []
    assert_same s, s.each_grapheme_cluster { |g| got << g }
    assert_equal ["a", "e\u0301"], got
    en = s.each_grapheme_cluster
    assert_kind_of Enumerator, en
    assert_equal ["a", "e\u0301"], en.to_a
  end
end
