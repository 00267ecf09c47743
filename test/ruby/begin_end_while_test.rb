# `begin ... end while cond` / `until cond` (CRuby's control-expression docs: the body runs before
# the condition is tested, once at least); other statements with a while/until modifier test
# first. Expected values as CRuby 3.1 and 3.3.8 give them.

class BeginEndWhileTest < MnTest::Case
  def test_body_runs_once_when_the_condition_is_false
    seen = []
    i = 10
    begin
      seen << i
    end while i < 5
    assert_equal [10], seen
  end

  def test_until_runs_the_body_first
    seen = []
    j = 10
    begin
      seen << j
    end until j > 5
    assert_equal [10], seen
  end

  def test_it_loops_while_the_condition_holds
    k = 0
    begin
      k += 1
    end while k < 3
    assert_equal 3, k
  end

  def test_literal_false_condition_still_runs_the_body
    n = 0
    begin n += 1 end while false
    assert_equal 1, n
    m = 0
    begin m += 1 end until true
    assert_equal 1, m
  end

  def test_next_goes_to_the_test
    seen = []
    i = 0
    begin
      i += 1
      next if i.odd?
      seen << i
    end while i < 6
    assert_equal [2, 4, 6], seen
  end

  def test_break_with_a_value
    i = 0
    v = (begin
      i += 1
      break i * 10 if i == 4
    end while true)
    assert_equal 40, v
  end

  def test_value_is_nil
    i = 0
    v = (begin i += 1 end while i < 2)
    assert_nil v
  end

  def test_a_plain_statement_modifier_tests_first
    n = 0
    n += 1 while false
    assert_equal 0, n
    m = 0
    (m += 1) while false
    assert_equal 0, m
  end

  def test_a_begin_in_the_condition_does_not_make_a_plain_modifier_run_first
    n = 0
    n += 1 while begin false end
    assert_equal 0, n
  end

  def test_begin_with_rescue
    tries = 0
    begin
      tries += 1
      raise "x" if tries < 2
    rescue
      retry
    end while false
    assert_equal 2, tries
  end
end
