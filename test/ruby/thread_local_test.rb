# Fiber-local variables (Thread#[], #[]=, #key?, #keys) and thread-local variables
# (Thread#thread_variable_get/set, #thread_variable?, #thread_variables) (CRuby 3.1 Thread docs).

class ThreadFiberLocalTest < MnTest::Case
  def teardown
    Thread.current[:tl_test] = nil
  end

  def test_unset_key_reads_nil
    assert_nil Thread.current[:tl_never_set]
  end

  def test_assignment_then_read_with_symbol
    Thread.current[:tl_test] = 1
    assert_equal 1, Thread.current[:tl_test]
  end

  def test_assignment_returns_the_value
    assert_equal 5, (Thread.current[:tl_test] = 5)
  end

  def test_string_key_is_the_same_as_symbol_key
    Thread.current["tl_test"] = :via_string
    assert_equal :via_string, Thread.current[:tl_test]
    assert_equal :via_string, Thread.current["tl_test"]
  end

  def test_key_reports_set_keys
    refute Thread.current.key?(:tl_test)
    Thread.current[:tl_test] = true
    assert Thread.current.key?(:tl_test)
    assert Thread.current.key?("tl_test")
  end

  def test_assigning_nil_removes_the_key
    Thread.current[:tl_test] = 1
    Thread.current[:tl_test] = nil
    refute Thread.current.key?(:tl_test)
    refute Thread.current.keys.include?(:tl_test)
  end

  def test_keys_lists_symbols
    t = Thread.new do
      Thread.current[:a] = 1
      Thread.current["b"] = 2
      Thread.current.keys.sort
    end
    assert_equal [:a, :b], t.value
  end

  def test_keys_of_a_new_thread_is_empty
    assert_equal [], Thread.new { Thread.current.keys }.value
  end

  def test_values_are_per_thread
    Thread.current[:tl_test] = :main
    assert_nil Thread.new { Thread.current[:tl_test] }.value
    assert_equal :main, Thread.current[:tl_test]
  end

  def test_other_threads_locals_are_readable_from_outside
    t = Thread.new { Thread.current[:x] = :inside; Thread.stop }
    wait_until("thread stopped") { t.stop? }
    assert_equal :inside, t[:x]
    assert t.key?(:x)
    t.run
    t.join
  end

  def test_locals_can_be_set_from_outside
    q = Queue.new
    t = Thread.new { q.pop; Thread.current[:y] }
    t[:y] = :from_outside
    q << :go
    assert_equal :from_outside, t.value
  end

  def test_values_are_fiber_local
    Thread.current[:tl_test] = :thread
    assert_nil Fiber.new { Thread.current[:tl_test] }.resume
  end

  def test_value_set_in_a_fiber_is_not_visible_outside
    Fiber.new { Thread.current[:tl_test] = :fiber }.resume
    assert_nil Thread.current[:tl_test]
  end

  def test_integer_key_raises_type_error
    e = assert_raise(TypeError) { Thread.current[1] }
    assert_equal "1 is not a symbol nor a string", e.message
  end

  def test_integer_key_assignment_raises_type_error
    e = assert_raise(TypeError) { Thread.current[1] = 2 }
    assert_equal "1 is not a symbol", e.message
  end
end

class ThreadVariableTest < MnTest::Case
  def teardown
    Thread.current.thread_variable_set(:tv_test, nil)
  end

  def test_unset_variable_reads_nil
    assert_nil Thread.current.thread_variable_get(:tv_never_set)
  end

  def test_set_then_get
    Thread.current.thread_variable_set(:tv_test, 7)
    assert_equal 7, Thread.current.thread_variable_get(:tv_test)
  end

  def test_set_returns_the_value
    assert_equal 9, Thread.current.thread_variable_set(:tv_test, 9)
  end

  def test_string_name_is_the_same_as_symbol
    Thread.current.thread_variable_set("tv_test", :s)
    assert_equal :s, Thread.current.thread_variable_get(:tv_test)
    assert_equal :s, Thread.current.thread_variable_get("tv_test")
  end

  def test_thread_variable_predicate
    t = Thread.new do
      before = Thread.current.thread_variable?(:v)
      Thread.current.thread_variable_set(:v, 1)
      [before, Thread.current.thread_variable?(:v), Thread.current.thread_variable?("v")]
    end
    assert_equal [false, true, true], t.value
  end

  def test_thread_variables_lists_symbols
    t = Thread.new do
      Thread.current.thread_variable_set(:p, 1)
      Thread.current.thread_variable_set("q", 2)
      Thread.current.thread_variables.sort
    end
    assert_equal [:p, :q], t.value
  end

  def test_variables_are_per_thread
    Thread.current.thread_variable_set(:tv_test, :main)
    assert_nil Thread.new { Thread.current.thread_variable_get(:tv_test) }.value
    assert_equal :main, Thread.current.thread_variable_get(:tv_test)
  end

  def test_variables_are_shared_by_fibers_of_the_thread
    Thread.current.thread_variable_set(:tv_test, :thread_wide)
    assert_equal :thread_wide, Fiber.new { Thread.current.thread_variable_get(:tv_test) }.resume
  end

  def test_variable_set_in_a_fiber_is_visible_outside
    Fiber.new { Thread.current.thread_variable_set(:tv_test, :from_fiber) }.resume
    assert_equal :from_fiber, Thread.current.thread_variable_get(:tv_test)
  end

  def test_variables_of_another_thread_are_readable
    t = Thread.new { Thread.current.thread_variable_set(:w, :other); Thread.stop }
    wait_until("thread stopped") { t.stop? }
    assert_equal :other, t.thread_variable_get(:w)
    t.run
    t.join
  end

  def test_integer_name_for_set_raises_type_error
    e = assert_raise(TypeError) { Thread.current.thread_variable_set(1, 2) }
    assert_equal "1 is not a symbol", e.message
  end

  def test_fiber_locals_and_thread_variables_are_separate
    t = Thread.new do
      Thread.current[:k] = :fiber_local
      Thread.current.thread_variable_set(:k, :thread_var)
      [Thread.current[:k], Thread.current.thread_variable_get(:k)]
    end
    assert_equal [:fiber_local, :thread_var], t.value
  end
end
