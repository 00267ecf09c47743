# Regexp: literals, Regexp.new/compile/escape/union, matching methods, queries, errors, and $~ with
# its scoping (per method frame, shared with blocks, per thread), from CRuby 3.1's Regexp docs.

class RegexpTest < MnTest::Case
  def refute_equal(exp, act, msg = nil)
    refute(exp == act, msg || "expected something other than #{exp.inspect}")
  end

  def test_literal_matches_and_returns_the_position
    assert_equal 2, /c/ =~ "abcd"
    assert_nil(/x/ =~ "abcd")
    assert_equal 0, /a.c/ =~ "abc"
  end

  def test_literal_flags
    assert_equal Regexp::IGNORECASE, /a/i.options
    assert_equal Regexp::EXTENDED | Regexp::MULTILINE, /a/xm.options
    assert(/ABC/i =~ "xabc")
    assert_nil(/a.c/ =~ "a\nc")
    assert_equal 0, /a.c/m =~ "a\nc"
    assert_equal 0, /a b  c # comment
                   /x =~ "abc"
  end

  def test_interpolated_literal
    word = "b+"
    assert_equal "(?-mix:ab+)", /a#{word}/.to_s
    assert_equal 0, /a#{word}/ =~ "abbb"
  end

  def test_percent_r_literal
    assert_equal "a/b", %r{a/b}.source
    assert_equal 1, %r{/b} =~ "a/b"
  end

  def test_the_same_literal_is_one_object
    objs = 3.times.map { /abc/ }
    assert_same objs[0], objs[1]
    assert objs[0].frozen?
  end

  def test_new_with_string_and_options
    assert_equal 0, Regexp.new("a+b") =~ "aab"
    assert_equal Regexp::IGNORECASE, Regexp.new("a", Regexp::IGNORECASE).options
    assert_equal Regexp::IGNORECASE, Regexp.new("a", true).options
    assert_equal 0, Regexp.new("a", false).options
    assert_equal 0, Regexp.new("a", nil).options
    assert_equal 7, Regexp.new("a", 7).options
    assert Regexp.new("A", true).match?("a")
  end

  def test_new_from_a_regexp_copies_it
    r = Regexp.new(/ab/i)
    assert_equal "ab", r.source
    assert_equal Regexp::IGNORECASE, r.options
  end

  def test_compile_is_new
    assert_equal(/a+/, Regexp.compile("a+"))
    assert_equal Regexp::MULTILINE, Regexp.compile("a", Regexp::MULTILINE).options
  end

  def test_new_rejects_non_strings
    assert_raise(TypeError) { Regexp.new(1) }
  end

  def test_bad_patterns_raise_regexp_error_with_the_source
    e = assert_raise(RegexpError) { Regexp.new("(") }
    assert_equal "end pattern with unmatched parenthesis: /(/", e.message
    e = assert_raise(RegexpError) { Regexp.new("a)") }
    assert_equal "unmatched close parenthesis: /a)/", e.message
    e = assert_raise(RegexpError) { Regexp.new("[a") }
    assert_equal "premature end of char-class: /[a/", e.message
    e = assert_raise(RegexpError) { Regexp.new("*") }
    assert_equal "target of repeat operator is not specified: /*/", e.message
    e = assert_raise(RegexpError) { Regexp.new("\\") }
    assert_equal "too short escape sequence: /\\/", e.message
    e = assert_raise(RegexpError) { Regexp.new("[b-a]") }
    assert_equal "empty range in char class: /[b-a]/", e.message
    assert_kind_of StandardError, e
  end

  def test_escape_and_quote
    assert_equal "a\\.b\\*c", Regexp.escape("a.b*c")
    assert_equal "\\[\\]\\{\\}\\(\\)\\|\\-\\*\\.\\\\\\?\\+\\^\\$\\#", Regexp.escape("[]{}()|-*.\\?+^$#")
    assert_equal "\\ \\t\\n\\r\\f\\v", Regexp.quote(" \t\n\r\f\v")
    assert_equal "abc", Regexp.escape(:abc)
    assert Regexp.new(Regexp.escape("1+1=2?")).match?("is 1+1=2?")
  end

  def test_union
    assert_equal(/(?!)/, Regexp.union)
    r = Regexp.union("a.b", "c")
    assert_equal "a\\.b|c", r.source
    assert r.match?("xc")
    refute r.match?("axb")
    assert_equal "(?-mix:a+)|(?i-mx:b)", Regexp.union(/a+/, /b/i).source
    assert_equal "x|y", Regexp.union(["x", "y"]).source
    re = /z/
    assert_same re, Regexp.union(re)
  end

  def test_match_returns_match_data_and_sets_last_match
    m = /(b)(c)/.match("abcd")
    assert_kind_of MatchData, m
    assert_equal "bc", m[0]
    assert_same m, $~
    assert_equal "b", $1
    assert_equal "c", $2
    assert_nil $3
  end

  def test_match_with_position
    assert_equal 2, /a/.match("a_ab", 1).begin(0)
    assert_nil(/a/.match("a_ab", 3))
    assert_equal 2, /a/.match("a_ab", -2).begin(0)
    assert_nil(/a/.match("a_ab", 5))
  end

  def test_match_with_a_block
    assert_equal "B", /b/.match("abc") { |m| m[0].upcase }
    called = false
    assert_nil(/x/.match("abc") { called = true })
    refute called
  end

  def test_match_nil_clears_last_match
    "a" =~ /a/
    assert_nil(/a/.match(nil))
    assert_nil $~
  end

  def test_match_p_does_not_touch_last_match
    "zz" =~ /z/
    before = $~
    assert(/b/.match?("abc"))
    refute(/x/.match?("abc"))
    refute(/a/.match?("abc", 1))
    assert_same before, $~
    refute(/a/.match?(nil))
  end

  def test_case_equality_and_case_when
    assert(/b/ === "abc")
    refute(/b/ === 42)
    assert(/ab/ === :cab)
    kind = case "2024-01-05"
           when /\A\d+\z/ then :number
           when /\A(\d+)-(\d+)-(\d+)\z/ then :date
           else :other
           end
    assert_equal :date, kind
    assert_equal "01", $2
  end

  def test_source_options_to_s_inspect
    r = /a\/b.c/mi
    assert_equal "a/b.c", r.source
    assert_equal "/a\\/b.c/mi", r.inspect
    assert_equal "(?mi-x:a\\/b.c)", r.to_s
    assert_equal "/a\\/b/", Regexp.new("a/b").inspect
    assert_equal "(?-mix:ab)", /ab/.to_s
    assert_equal "(?mix:ab)", /ab/mix.to_s
    assert Regexp.new(/x+/.to_s).match?("axx")
  end

  def test_equality_and_hash
    assert_equal Regexp.new("ab"), Regexp.new("ab")
    refute_equal Regexp.new("ab"), Regexp.new("ab", true)
    refute_equal Regexp.new("ab"), Regexp.new("abc")
    assert_equal Regexp.new("ab").hash, Regexp.new("ab").hash
    assert(Regexp.new("ab").eql?(Regexp.new("ab")))
    h = { Regexp.new("k") => 1 }
    assert_equal 1, h[Regexp.new("k")]
  end

  def test_names_and_named_captures
    r = /(?<year>\d+)-(?<mon>\d+)-(?<year>x)?/
    assert_equal ["year", "mon"], r.names
    assert_equal({ "year" => [1, 3], "mon" => [2] }, r.named_captures)
    assert_equal [], /(a)/.names
  end

  def test_dup_and_clone
    r = Regexp.new("a(b)", Regexp::IGNORECASE)
    d = r.dup
    assert_equal r, d
    assert_equal 1, d =~ "xAB"
    c = /lit/.clone
    assert c.frozen?
    assert_equal 0, c =~ "lit"
    m = r.match("xab")
    md = m.dup
    assert_equal m, md
    assert_equal "b", md[1]
    assert_equal "x", m.clone.pre_match
  end

  def test_casefold
    assert(/a/i.casefold?)
    refute(/a/.casefold?)
  end

  def test_last_match
    /(\w)(\w)/ =~ "xy"
    assert_same $~, Regexp.last_match
    assert_equal "xy", Regexp.last_match(0)
    assert_equal "y", Regexp.last_match(2)
    /z/ =~ "a"
    assert_nil Regexp.last_match
    assert_nil Regexp.last_match(1)
  end

  def test_special_variables
    "hello world" =~ /o (w)(x)?/
    assert_equal "o w", $&
    assert_equal "hell", $`
    assert_equal "orld", $'
    assert_equal "w", $+
    assert_equal "w", $1
    assert_nil $2
  end

  def test_special_variables_are_nil_without_a_match
    "a" =~ /b/
    assert_nil $~
    assert_nil $&
    assert_nil $1
    assert_nil $`
  end

  def test_assigning_last_match
    m = /b/.match("abc")
    "x" =~ /x/
    $~ = m
    assert_equal "b", $&
    $~ = nil
    assert_nil $&
    assert_raise(TypeError) { $~ = 1 }
  end

  def helper_that_matches
    "a" =~ /(a)/
    $1
  end

  def test_a_method_does_not_change_its_callers_last_match
    "b" =~ /(b)/
    assert_equal "a", helper_that_matches
    assert_equal "b", $~[0]
    assert_equal "b", $1
  end

  def helper_reads_last_match
    $~
  end

  def test_a_new_method_frame_starts_with_no_last_match
    "b" =~ /b/
    assert_nil helper_reads_last_match
    assert_nil helper_reads_last_match   # the same method again at the same depth
  end

  def test_blocks_share_their_methods_last_match
    [1].each { "q" =~ /(q)/ }
    assert_equal "q", $1
    "r" =~ /(r)/
    seen = nil
    [1].each { [2].map { seen = $1 } }
    assert_equal "r", seen
    l = lambda { "s" =~ /(s)/ }
    l.call
    assert_equal "s", $1
  end

  def test_last_match_of_a_block_called_later_by_another_method
    "t" =~ /(t)/
    got = nil
    blk = proc { got = $1 }
    helper_calls(blk)
    assert_equal "t", got
  end

  def helper_calls(blk)
    "u" =~ /(u)/
    blk.call
  end

  define_method(:defined_with_define_method) { "d" =~ /(d)/; $1 }

  def nested_blocks_match
    [1].each { [2].each { "n" =~ /(n)/ } }
    $1
  end

  def test_scoping_of_other_kinds_of_frames
    "top" =~ /(top)/
    assert_equal "d", defined_with_define_method
    assert_equal "top", $1
    assert_equal "n", nested_blocks_match
    assert_equal "top", $1
    pr = proc { |s| s =~ /(.+)/; $1 }
    assert_equal ["x", "y"], %w(x y).map(&pr)
    assert_equal "y", $1   # the proc was written here: it shares this method's $~
    Object.new.instance_eval { "ie" =~ /(ie)/ }
    assert_equal "ie", $1
  end

  def test_a_fiber_has_its_own_last_match
    "m" =~ /(m)/
    f = Fiber.new { first = $1; "f" =~ /(f)/; [first, $1] }
    assert_equal [nil, "f"], f.resume
    assert_equal "m", $1
  end

  def test_each_thread_has_its_own_last_match
    "main" =~ /(main)/
    t = Thread.new { r = [$~]; "thr" =~ /(thr)/; r << $1; r }
    first, after = t.value
    assert_nil first
    assert_equal "thr", after
    assert_equal "main", $1
  end

  def test_last_match_per_thread_under_preemption
    q = Queue.new
    threads = 16.times.map do |i|
      Thread.new(i) do |n|
        word = "t#{n}x"
        ok = true
        2000.times do |k|
          "#{word}#{k}" =~ /(t\d+x)(\d+)/
          Thread.pass if k % 97 == 0
          x = 0
          x += 1 while x < (k % 7)   # spin a little: timeslices end here too
          ok &&= ($1 == word && $2 == k.to_s && $~.string == "#{word}#{k}")
        end
        q << ok
      end
    end
    threads.each(&:join)
    assert_equal [true] * 16, 16.times.map { q.pop }
  end

  def test_last_match_survives_garbage_collection_while_threads_switch
    threads = 4.times.map do |i|
      Thread.new do
        ok = true
        200.times do |k|
          "k#{i}-#{k}" =~ /k(\d+)-(\d+)/
          GC.start if k % 50 == i
          Array.new(50) { "x" * 40 }   # garbage, so that collections have work
          ok &&= $~.string == "k#{i}-#{k}" && $2 == k.to_s && $~.pre_match == ""
        end
        ok
      end
    end
    assert_equal [true] * 4, threads.map(&:value)
  end

  def test_a_regexp_is_shared_by_threads
    re = /(\d+)-(\d+)/
    threads = 8.times.map do |i|
      Thread.new do
        sum = 0
        500.times { |k| m = re.match("x#{i}-#{k}y"); sum += m[2].to_i if m && m[1] == i.to_s }
        sum
      end
    end
    assert_equal [(0...500).sum] * 8, threads.map(&:value)
  end

  def test_multibyte_text_matches_by_character
    assert_equal "é", /./.match("é")[0]
    assert_equal "日本", /\A(..)/.match("日本語")[1]
    assert_equal "ü", /[äöü]/.match("grün")[0]
    assert(/É/i.match?("é"))
    assert_equal "語", "日本語"[/.\z/]
  end

  def test_shorthand_classes_are_ascii_and_the_rest_unicode
    assert_nil "ö" =~ /\w/
    assert_equal 0, "ö" =~ /\W/
    assert_equal 0, "ö" =~ /[^\w]/
    assert_nil "١" =~ /\d/
    assert_nil "\u3000" =~ /\s/
    assert_equal 0, "ö" =~ /[[:alpha:]]/
    assert_equal 0, "ö" =~ /[[:word:]]/
    assert_equal 0, "é" =~ /\p{Word}/
    assert_equal 0, "١" =~ /[[:digit:]]/
    assert_nil "aé" =~ /a\b/          # \b: é is a word character
    assert_equal 0, "a-" =~ /[\w-]+$/
    assert_equal 0, "\\w" =~ /\\w/      # an escaped backslash, then a plain w
    assert_equal ["w", "rd"], "wörd".scan(/\w+/)
  end

  def test_positions_are_character_offsets
    assert_equal 2, /b/ =~ "éab"
    m = /(b)/.match("éab")
    assert_equal [2, 3], m.offset(1)
    assert_equal "éa", m.pre_match
  end

  def test_invalid_utf8_subject_raises_argument_error
    e = assert_raise(ArgumentError) { /a/ =~ "a\xff" }
    assert_equal "invalid byte sequence in UTF-8", e.message
    assert_raise(ArgumentError) { "a\xff".gsub(/a/, "b") }
    assert_raise(ArgumentError) { "a\xff".split(/x/) }
  end

  def test_a_long_string_made_invalid_after_a_match_raises
    s = "a" * 1000
    assert_equal 0, s =~ /a/
    s << "\xff"
    assert_raise(ArgumentError) { s =~ /a/ }
    t = "b" * 999 + "\xe3"
    assert_raise(ArgumentError) { t.match(/b/, 5) }
  end

  # Positions are characters: each match(big, pos) and m.end(0) of a non-ASCII string counts from
  # its start, as CRuby's do, so the loop is quadratic in both (20,000 words: CRuby 3.1 7.5 s,
  # mnrb 12 s); 2,000 keep it quick under the sanitizers.
  def test_matching_a_long_string_from_successive_positions
    big = "wörd " * 2_000   # \w is ASCII: "w" and "rd" are two words
    pos = 0
    n = 0
    while (m = /\w+/.match(big, pos))
      n += 1
      pos = m.end(0)
    end
    assert_equal 4_000, n
  end

  def test_runaway_backtracking_raises_instead_of_running_for_ever
    mnrb_only   # Oniguruma's retry limit; CRuby 3.1's Onigmo happens to fail this one fast
    e = assert_raise(RegexpError) { /(a+)+b/ =~ "a" * 30 + "c" }
    assert_equal "retry-limit-in-match over", e.message
  end

  def test_regexp_error_for_a_bad_literal_at_run_time
    mnrb_only   # CRuby rejects it when parsing
    src = 'def bad_re; /a(/; end; bad_re'
    assert_raise(RegexpError) { eval(src) }
  end

  # to_s and inspect keep white space as it is (CRuby's rb_reg_expr_str), so an /x pattern with
  # comments can be interpolated into another (CodeRay's Ruby scanner builds its patterns so)
  def test_extended_pattern_with_comments_interpolates
    inner = Regexp.new("\n  a   # one, two\n  | b # three\n", Regexp::EXTENDED)
    assert_equal "(?x-mi:\n  a   # one, two\n  | b # three\n)", inner.to_s
    outer = / x #{inner} /x
    assert_equal "xb", "xb"[outer]
    assert_equal "/a\tb\n/", Regexp.new("a\tb\n").inspect
    assert_equal "/\\x01/", Regexp.new("\x01").inspect
  end
end
