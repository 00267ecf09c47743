# eval in isolated procs (issue 20; CRuby's bootstraptest/test_ractor.rb L843, L171): an outer
# variable named in an eval inside a Ractor block or a shareable proc is CRuby's SyntaxError "can
# not access variable 'a' from isolated Proc" (its compiler knows the scopes beyond the isolation);
# a name that was never a variable stays NameError, and the proc's own variables are found.
# mnrb records the names when it isolates a proc (mruby patch 0174, mnrb-ractor isolated_names.c).
# Checked on CRuby 3.3.8 and 3.1.2 (Ractor.shareable_proc is 4.0's: make_shareable there).
class RactorIsolatedEvalTest < MnTest::Case
  def test_an_outer_variable_in_a_ractor_block
    outer = 42
    r = Ractor.new { eval("outer") }
    e = assert_raise(Ractor::RemoteError) { r.take }
    assert_kind_of SyntaxError, e.cause
    assert e.cause.message =~ /can not access variable .outer' from isolated Proc/, e.cause.message   # 3.x: `outer'
    assert_equal 42, outer
  end

  def test_a_name_that_was_no_variable_is_a_name_error
    r = Ractor.new { eval("totally_undefined_name") }
    e = assert_raise(Ractor::RemoteError) { r.take }
    assert_kind_of NameError, e.cause
  end

  def test_the_blocks_own_variables_and_arguments
    r = Ractor.new(5) do |arg|
      own = 2
      [eval("own + arg"), [1].map { |x| eval("x + own") }]
    end
    assert_equal [7, [3]], r.take
  end

  def test_an_outer_variable_in_a_nested_block_of_a_ractor
    outer = 1
    r = Ractor.new { [1].map { eval("outer") } }
    e = assert_raise(Ractor::RemoteError) { r.take }
    assert_kind_of SyntaxError, e.cause
    assert_equal 1, outer
  end

  def test_a_shareable_proc
    a = 42
    pr = nil.instance_exec { Proc.new { eval("a") } }
    assert_equal 42, pr.call          # before: the variable is there
    Ractor.make_shareable(pr)
    assert_raise(SyntaxError) { pr.call }
    assert_equal 42, a
  end
end
