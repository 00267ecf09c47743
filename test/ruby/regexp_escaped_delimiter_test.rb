# An escaped delimiter of a %r literal keeps its backslash when it is a pattern metacharacter, as
# CRuby: %r[a\[b\]] matches "a[b]" (mruby made it a character class). Run on CRuby 3.3.8 and 3.1
# (patches/mruby/0240).
class RegexpEscapedDelimiterTest < MnTest::Case
  def test_sources
    assert_equal ["a\\[b\\]", "a\\{2\\}", "\\(x\\)", "a\\|b", "\\<", "a\\>"],
                 [%r[a\[b\]].source, %r{a\{2\}}.source, %r(\(x\)).source, %r|a\|b|.source, %r<\<>.source, %r<a\>>.source]
  end

  def test_plain_delimiters_lose_the_backslash
    assert_equal ["a!b", "a/b", "a,b"], [%r!a\!b!.source, /a\/b/.source, %r,a\,b,.source]
  end

  def test_matching
    assert_equal 0, %r[\A\[(\d+)\]\z] =~ "[12]"
    assert_equal "12", $1
    assert_nil %r[\A\[x\]\z] =~ "x"
    assert_equal 0, %r{\Aa\{2\}\z} =~ "a{2}"
    assert_equal 0, %r|\Aa\|b\z| =~ "a|b"
  end

  def test_named_groups_inside_brackets
    re = %r[(?<lit>\[(?<v>[a-z]+)\])|\g<v>]x
    assert_equal "[abc]", re.match("[abc]")[:lit]
    assert_equal "x", re.match("x")[0]
  end
end
