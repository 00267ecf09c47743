# $! and $@ as CRuby scopes them: the exception of the innermost rescue or ensure clause running
# on this thread (methods and blocks called from the clause see it too), nil again once the clause
# is left by any path, each thread and fiber with its own; a bare `raise` re-raises $!.
# Expected values are CRuby 3.1's (this file passes there too).

class ExceptionGlobalsTest < MnTest::Case
  def read_errinfo = $!

  def test_bang_is_the_rescued_exception_and_nil_after_the_clause
    seen = begin
      raise "a"
    rescue
      $!
    end
    assert_equal "a", seen.message
    assert_nil $!
  end

  def test_nested_rescue_restores_the_outer_exception
    inner = outer = nil
    begin
      raise "outer"
    rescue
      begin
        raise "inner"
      rescue
        inner = $!.message
      end
      outer = $!.message
    end
    assert_equal ["inner", "outer"], [inner, outer]
  end

  def test_ensure_sees_the_propagating_exception
    seen = :unset
    begin
      begin
        raise "boom"
      ensure
        seen = $!
      end
    rescue
    end
    assert_equal "boom", seen.message
  end

  def test_ensure_without_exception_sees_the_outer_value
    plain = nested = :unset
    begin
    ensure
      plain = $!
    end
    begin
      raise "outer"
    rescue
      begin
      ensure
        nested = $!
      end
    end
    assert_nil plain
    assert_equal "outer", nested.message
  end

  def test_methods_and_blocks_called_from_a_rescue_clause_see_it
    from_method = from_block = nil
    begin
      raise "x"
    rescue
      from_method = read_errinfo
      [1].each { from_block = $! }
    end
    assert_equal "x", from_method.message
    assert_equal "x", from_block.message
    assert_nil read_errinfo
  end

  def test_other_threads_and_fibers_have_their_own
    in_thread = in_fiber = :unset
    begin
      raise "main"
    rescue
      in_thread = Thread.new { $! }.value
      in_fiber = Fiber.new { $! }.resume
    end
    assert_nil in_thread
    assert_nil in_fiber
  end

  def test_a_thread_rescuing_does_not_change_another_threads_bang
    q1 = Queue.new
    q2 = Queue.new
    t = Thread.new do
      begin
        raise "in thread"
      rescue
        q1 << :rescuing
        q2.pop
        $!.message
      end
    end
    q1.pop
    main_sees = $!
    q2 << :go
    assert_nil main_sees
    assert_equal "in thread", t.value
  end

  def returns_from_rescue
    begin
      raise "r"
    rescue
      return :returned
    end
  end

  def test_leaving_by_return_break_next_or_retry_clears_it
    returns_from_rescue
    assert_nil $!
    loop do
      begin
        raise "b"
      rescue
        break
      end
    end
    assert_nil $!
    [1].each do
      begin
        raise "n"
      rescue
        next
      end
    end
    assert_nil $!
    tries = []
    begin
      tries << $!
      raise "again" if tries.size < 2
    rescue
      retry
    end
    assert_equal [nil, nil], tries
  end

  def test_else_clause_sees_the_outer_value
    seen = :unset
    begin
      raise "outer"
    rescue
      begin
        1
      rescue
      else
        seen = $!
      end
    end
    assert_equal "outer", seen.message
  end

  def test_rescue_modifier
    assert_equal "m", (raise "m" rescue $!).message
  end

  def test_rescue_clause_value_is_kept
    v = begin
      raise "a"
    rescue
      42
    end
    assert_equal 42, v
    empty = begin
      raise "a"
    rescue
    end
    assert_nil empty
    assert_equal [[:r, 1]], [1].map { |i| begin; raise "q"; rescue => e; [:r, i]; end }
  end

  def test_at_is_the_backtrace
    begin
      raise "a"
    rescue
      assert_kind_of Array, $@
      assert_equal $!.backtrace, $@
    end
    assert_nil $@
  end

  def test_setting_at_sets_the_backtrace
    begin
      raise "a"
    rescue
      $@ = ["here:1"]
      assert_equal ["here:1"], $!.backtrace
    end
  end

  def test_setting_at_without_bang_raises
    e = assert_raise(ArgumentError) { $@ = ["x"] }
    assert_equal "$! not set", e.message
  end

  def test_bang_and_at_are_global_variables
    assert_equal "global-variable", defined?($!)
    assert_equal "global-variable", defined?($@)
    assert_include global_variables, :$!
    assert_include global_variables, :$@
  end

  def test_bang_is_read_only
    e = assert_raise(NameError) { eval("$! = 1") }
    assert_equal "$! is a read-only variable", e.message
  end

  def test_bare_raise_re_raises_bang
    original = RuntimeError.new("orig")
    reraised = begin
      begin
        raise original
      rescue
        raise
      end
    rescue => e
      e
    end
    assert_same original, reraised
  end

  def test_bare_raise_without_bang_is_an_unhandled_runtime_error
    e = assert_raise(RuntimeError) { raise }
    assert_equal "", e.message
    assert_equal "unhandled exception", e.full_message(highlight: false).lines.first.split(": ", 2).last.chomp
  end

  def test_raise_from_c_code_in_a_rescue_keeps_bang_for_the_next_clause
    seen = nil
    begin
      raise "first"
    rescue
      begin
        Integer("zz")
      rescue ArgumentError
        seen = $!.class
      end
    end
    assert_equal ArgumentError, seen
  end
end
