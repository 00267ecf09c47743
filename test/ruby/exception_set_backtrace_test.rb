# Exception#set_backtrace (CRuby's Exception docs): an Array of Strings, a String (a one-line
# backtrace) or nil (none, so that a later raise records its own); anything else is a TypeError
# (3.4+'s message names Thread::Backtrace::Location too, 3.3's "backtrace must be Array of
# String"). Kernel#raise's third argument goes through it.

class ExceptionSetBacktraceTest < MnTest::Case
  def test_an_array_of_strings
    e = RuntimeError.new("x")
    assert_equal ["a:1", "b:2"], e.set_backtrace(["a:1", "b:2"])
    assert_equal ["a:1", "b:2"], e.backtrace
  end

  def test_a_string_is_a_one_line_backtrace
    e = RuntimeError.new("x")
    assert_equal ["here:1"], e.set_backtrace("here:1")
    assert_equal ["here:1"], e.backtrace
  end

  def test_nil_clears_it_and_a_raise_records_its_own
    e = RuntimeError.new("x")
    e.set_backtrace(["old:1"])
    assert_nil e.set_backtrace(nil)
    assert_nil e.backtrace
    begin
      raise e
    rescue RuntimeError => got
      assert got.backtrace.size >= 1, "no backtrace recorded"
      assert !got.backtrace.include?("old:1"), "kept the old backtrace"
    end
  end

  def test_a_set_backtrace_survives_a_raise
    e = RuntimeError.new("x")
    e.set_backtrace("kept:1")
    begin
      raise e
    rescue RuntimeError => got
      assert_equal ["kept:1"], got.backtrace
    end
  end

  def test_raise_with_a_string_backtrace
    begin
      raise ArgumentError, "m", "there:7"
    rescue ArgumentError => got
      assert_equal ["there:7"], got.backtrace
    end
  end

  def test_other_values_are_refused
    e = RuntimeError.new("x")
    [1, [1], ["a", :b], :sym].each do |bad|
      err = assert_raise(TypeError) { e.set_backtrace(bad) }
      assert_include err.message, "backtrace must be"
    end
  end
end
