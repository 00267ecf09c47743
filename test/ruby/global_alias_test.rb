# `alias $new $old` (mruby patch 0066): the two names are one variable, also for the variables
# served by a hook ($! $@ $~ $& and the rest). Expectations checked on CRuby 3.1.
class GlobalAliasTest < MnTest::Case
  def test_plain_global_shares_storage
    $ga_plain = 1
    eval("alias $ga_plain_alias $ga_plain")
    assert_equal 1, $ga_plain_alias
    $ga_plain_alias = 5
    assert_equal 5, $ga_plain
    $ga_plain = :x
    assert_equal :x, $ga_plain_alias
  end

  def test_alias_before_the_variable_is_set
    eval("alias $ga_early $ga_late")
    assert_nil $ga_early
    $ga_late = [1]
    assert_same $ga_late, $ga_early
  end

  def test_listed_and_defined
    eval("alias $ga_listed $ga_listed_target")
    assert_include global_variables, :$ga_listed
    assert_equal 1, global_variables.count(:$ga_listed)
    assert_nil defined?($ga_listed)   # as its target: never set
    $ga_listed_target = 0
    assert_equal "global-variable", defined?($ga_listed)
  end

  def test_exception_globals
    eval("alias $ga_err $!; alias $ga_pos $@")
    assert_nil $ga_err
    begin
      raise ArgumentError, "boom"
    rescue
      assert_equal "boom", $ga_err.message
      assert_kind_of Array, $ga_pos
    end
    assert_nil $ga_err
    e = assert_raise(NameError) { eval("$ga_err = 1") }
    assert_equal "$ga_err is a read-only variable", e.message
  end

  def test_match_globals_are_the_frames
    eval("alias $ga_m $~; alias $ga_amp $&; alias $ga_pre $`; alias $ga_post $'; alias $ga_plus $+")
    assert_equal 2, "hello world" =~ /(l)lo (w)?/
    assert_equal ["llo w", "he", "orld", "w", "l"], [$ga_amp, $ga_pre, $ga_post, $ga_plus, $ga_m[1]]
    inner = -> { "abc" =~ /b/; $ga_amp }
    assert_equal "b", inner.call
    assert_equal "b", $ga_amp   # a block shares its method's $~
    assert_equal "x", matched_in_a_method
    assert_equal "b", $ga_amp   # a method has its own
  end

  def matched_in_a_method
    "x" =~ /x/
    $ga_amp
  end

  def test_the_standard_streams
    eval("alias $ga_out $stdout")
    assert_same $stdout, $ga_out
  end

  def test_aliasing_back_makes_no_cycle
    eval("alias $ga_c1 $ga_c2; alias $ga_c2 $ga_c1")
    $ga_c2 = 3
    assert_equal 3, $ga_c1
  end

  def test_one_level_as_cruby_entries
    $ga_b = :b
    $ga_c = :c
    eval("alias $ga_a $ga_b")
    eval("alias $ga_b $ga_c")
    assert_equal :c, $ga_b
    assert_equal :b, $ga_a   # still what $ga_b named when $ga_a was made
  end

  def test_alias_in_a_method_runs_when_called
    eval("def ga_make_alias; alias $ga_late_m $ga_target_m; end")
    $ga_target_m = 4
    assert_nil $ga_late_m
    ga_make_alias
    assert_equal 4, $ga_late_m
  end

  def test_number_variables_cannot_be_aliased
    e = assert_raise(SyntaxError) { eval("alias $ga_n $1") }
    assert_include e.message, "can't make alias for the number variables"
  end

  def test_a_thread_sees_its_own_errinfo_through_the_alias
    eval("alias $ga_terr $!")
    t = Thread.new do
      begin
        raise "in thread"
      rescue
        $ga_terr.message
      end
    end
    assert_equal "in thread", t.value
    assert_nil $ga_terr
  end

  def test_defined_for_match_variables_follows_the_last_match
    "x" =~ /y/
    assert_equal [nil, nil, nil, "global-variable"], [defined?($&), defined?($1), defined?($+), defined?($~)]
    "ab" =~ /(a)(x)?/
    assert_equal ["global-variable", "global-variable", nil, nil, "global-variable"],
                 [defined?($&), defined?($1), defined?($2), defined?($3), defined?($+)]
    "ab" =~ /a/
    assert_nil defined?($+)
    eval("alias $ga_amp2 $&")
    "x" =~ /y/
    assert_equal "global-variable", defined?($ga_amp2)   # an alias of a match variable always is
  end

  def test_defined_for_special_variables
    assert_equal ["global-variable"] * 6, [defined?($;), defined?($,), defined?($_), defined?($-w), defined?($0), defined?($stdout)]
    assert_nil defined?($ga_never_assigned)
  end
end
