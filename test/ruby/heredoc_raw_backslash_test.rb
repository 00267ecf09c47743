# A single-quoted heredoc's line that ends in a backslash keeps the backslash and is still a line:
# the terminator may follow it (CRuby 3.3's optparse.rb has one), and <<~ unindents the next line.
# mruby took backslash-newline as one escape and missed the terminator. Double-quoted heredocs
# join the lines, as in CRuby. Run on CRuby 3.3.8 and 3.1 (patches/mruby/0240).
class HeredocRawBackslashTest < MnTest::Case
  def test_terminator_after_backslash_line
    s = <<'X'
a \
X
    assert_equal "a \\\n", s
  end

  def test_squiggly_unindents_after_backslash_line
    s = <<~'X'
      a \
      b
    X
    assert_equal "a \\\nb\n", s
  end

  def test_dash_heredoc
    s = <<-'X'
  _arguments -s -S \
  X
    assert_equal "  _arguments -s -S \\\n", s
  end

  def test_double_quoted_joins_lines
    s = <<~X
      a \
      b
    X
    assert_equal "a b\n", s
  end
end
