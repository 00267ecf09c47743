# Patterns that are plain words joined by '|' (/timeout/, /error|warning/) are matched by mnrb
# without Oniguruma (mrbgems/mnrb-regexp/src/literal.c). The same words inside a group,
# /(?:error|warning)/, always go to the engine: every operation must give the same answer both
# ways, Ruby's leftmost-first choice included (/ab|abc/ takes "ab" of "abc").

class RegexpWordsTest < MnTest::Case
  # a small deterministic generator (the same cases on every run and on CRuby)
  def rand_below(n)
    @seed = (@seed * 1103515245 + 12345) % 2147483648
    (@seed >> 8) % n
  end

  def rand_text(alphabet, max)
    (0...rand_below(max + 1)).map { alphabet[rand_below(alphabet.size)] }.join
  end

  def both_ways(words)
    [Regexp.new(words.join("|")), Regexp.new("(?:#{words.join('|')})")]
  end

  def same(fast, engine, what)
    assert_equal engine, fast, what
  end

  def test_random_words_and_texts_agree_with_the_engine
    @seed = 7
    400.times do
      words = (1 + rand_below(4)).times.map { rand_text("ab c-", 3) }.reject(&:empty?)
      next if words.empty?
      fast, engine = both_ways(words)
      s = rand_text("ab c-", 24)
      label = "#{fast.inspect} on #{s.inspect}"
      same((s =~ fast), (s =~ engine), "=~ #{label}")
      same(fast.match(s)&.offset(0), engine.match(s)&.offset(0), "match #{label}")
      same(fast.match?(s), engine.match?(s), "match? #{label}")
      same(s.scan(fast), s.scan(engine), "scan #{label}")
      same(s.gsub(fast) { |m| "<#{m}>" }, s.gsub(engine) { |m| "<#{m}>" }, "gsub #{label}")
      same(s.split(fast), s.split(engine), "split #{label}")
      pos = rand_below(s.size + 2)
      same(s.index(fast, pos), s.index(engine, pos), "index at #{pos}, #{label}")
      same(fast.match(s, pos)&.offset(0), engine.match(s, pos)&.offset(0), "match at #{pos}, #{label}")
      same(s.rindex(fast), s.rindex(engine), "rindex #{label}")
    end
  end

  def test_the_first_word_wins_at_the_leftmost_position
    assert_equal "ab", "xabc"[/ab|abc/]
    assert_equal "abc", "xabc"[/abc|ab/]
    assert_equal "ab", "ab"[/b|ab/]
    assert_equal ["error", "warning", "error"], "error, warning and error".scan(/warning|error/)
  end

  def test_match_data_and_last_match
    m = /took|ms/.match("id=3 took 20ms")
    assert_equal ["took", 5, 9, "id=3 ", " 20ms"], [m[0], m.begin(0), m.end(0), m.pre_match, m.post_match]
    assert_equal [], m.captures
    "a timeout" =~ /timeout|error/
    assert_equal "timeout", $~[0]
    assert_nil("nothing here" =~ /timeout|error/)
    assert_nil $~
  end

  def test_words_in_multibyte_text
    s = "été: timeout à 5 ms"
    assert_equal s =~ /(?:timeout)/, s =~ /timeout/
    assert_equal "timeout", s[/timeout|ms/]
    assert_equal s.split(/(?: )/), s.split(/ /)
    assert_equal s.gsub(/(?:ms|à)/, "_"), s.gsub(/ms|à/, "_")
  end

  def test_patterns_the_fast_path_leaves_to_the_engine
    assert_equal ["", "a", ""], "xa".scan(/a|/)   # an empty word matches everywhere
    assert_equal "ERROR", "an ERROR"[/error|warning/i]
    assert_equal "a.c", "abc a.c"[/a\.c/]
    assert_equal 2, "x a" =~ /a b|a/
  end
end
