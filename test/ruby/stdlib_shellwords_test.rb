# require "shellwords" as CRuby's: Bourne-shell word splitting (quotes, backslashes, quotes that
# touch words), ArgumentError "Unmatched quote: <line>", escaping every unsafe character and an
# empty word as '', and the String/Array shortcuts. Expected values are CRuby 3.1's.
require "shellwords"

class StdlibShellwordsTest < MnTest::Case
  def test_split_on_blanks
    assert_equal ["a", "b", "c"], Shellwords.split("a b  c")
    assert_equal ["a", "b"], "  a\tb\n".shellsplit
    assert_equal [], Shellwords.shellsplit("   ")
  end

  def test_quotes_join_what_touches_them
    assert_equal ["ab cd"], "a\"b c\"d".shellsplit
    assert_equal ["a bc"], "'a b'c".shellsplit
    assert_equal ["a", "", "b"], "a '' b".shellsplit
    assert_equal ["a'b", "a\"b"], "\"a'b\" 'a\"b'".shellsplit
  end

  def test_backslashes
    assert_equal ["a b"], "a\\ b".shellsplit
    assert_equal ["a\\b"], "a\\\\b".shellsplit
    assert_equal ["a\"b"], "\"a\\\"b\"".shellsplit
    assert_equal ["a$b\\x"], "\"a\\$b\\x\"".shellsplit
    assert_equal ["a\\b"], "'a\\b'".shellsplit
    assert_equal ["x\\"], "x\\".shellsplit
  end

  def test_unmatched_quote
    ["'a", "\"a", "a'"].each do |line|
      e = assert_raise(ArgumentError) { line.shellsplit }
      assert_equal "Unmatched quote: #{line.inspect}", e.message
    end
  end

  def test_escape
    assert_equal "''", Shellwords.escape("")
    assert_equal "a\\ b", "a b".shellescape
    assert_equal "a'\n'b", Shellwords.escape("a\nb")
    assert_equal "-_.,:+/@", Shellwords.escape("-_.,:+/@")
    assert_equal "\\~\\$\\`\\!\\*\\?", Shellwords.escape("~$`!*?")
    assert_equal "\\é", Shellwords.escape("é")
    assert_equal "1", Shellwords.escape(1)
  end

  def test_join_round_trips_through_split
    words = ["a b", "", "it's", "x\"y", "$HOME"]
    assert_equal "a\\ b '' it\\'s x\\\"y \\$HOME", words.shelljoin
    assert_equal words, Shellwords.split(Shellwords.join(words))
  end
end
