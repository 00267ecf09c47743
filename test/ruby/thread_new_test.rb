# Thread.new / Thread.start / Thread.fork: creating threads and passing arguments (CRuby 3.1 Thread docs).

class ThreadNewTest < MnTest::Case
  def test_new_runs_the_block_and_value_returns_its_result
    assert_equal 42, Thread.new { 6 * 7 }.value
  end

  def test_new_returns_a_thread
    t = Thread.new {}
    assert_kind_of Thread, t
    t.join
  end

  def test_new_passes_arguments_to_the_block
    assert_equal [1, "two", :three], Thread.new(1, "two", :three) { |a, b, c| [a, b, c] }.value
  end

  def test_new_passes_arguments_to_a_splat_block
    assert_equal [4, 5], Thread.new(4, 5) { |*args| args }.value
  end

  def test_start_passes_arguments_to_the_block
    assert_equal 3, Thread.start(1, 2) { |a, b| a + b }.value
  end

  def test_fork_passes_arguments_to_the_block
    assert_equal 6, Thread.fork(3) { |a| a * 2 }.value
  end

  def test_new_without_block_raises_thread_error
    e = assert_raise(ThreadError) { Thread.new }
    assert_equal "must be called with a block", e.message
  end

  # CRuby 3.1 raises ArgumentError("tried to create Proc object without a block") here,
  # unlike Thread.new; only the class is checked.
  def test_start_without_block_raises_argument_error
    assert_raise(ArgumentError) { Thread.start }
  end

  def test_block_sees_variables_of_the_enclosing_scope
    x = 10
    Thread.new { x += 5 }.join
    assert_equal 15, x
  end

  def test_each_thread_gets_its_own_block_arguments
    threads = (0...10).map { |i| Thread.new(i) { |n| n * n } }
    assert_equal (0...10).map { |i| i * i }, threads.map(&:value)
  end

  def test_new_thread_is_a_distinct_object_from_the_current_thread
    t = Thread.new { Thread.current }
    assert_same t, t.value
    refute t.value.equal?(Thread.current)
  end

  def test_thread_can_create_and_join_a_nested_thread
    assert_equal :inner, Thread.new { Thread.new { :inner }.value }.value
  end

  def test_subclass_of_thread_can_be_instantiated
    klass = Class.new(Thread)
    t = klass.new { :sub }
    assert_kind_of klass, t
    assert_equal :sub, t.value
  end
end
