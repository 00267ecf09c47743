# Stack overflow inside a thread is a SystemStackError that the thread can rescue (CRuby), whether
# the recursion stays in Ruby or goes through C (inspect of nested arrays): never a segfault.

class ThreadStackOverflowTest < MnTest::Case
  def deep(n)
    deep(n + 1)
  end

  # Runs the block in a new thread; the class of what it raised (nil if nothing).
  def raised_in_thread(&blk)
    Thread.new do
      begin
        blk.call
        nil
      rescue SystemStackError => e
        e.class
      end
    end.value
  end

  def test_ruby_recursion_raises_system_stack_error_in_the_thread
    assert_equal SystemStackError, raised_in_thread { deep(0) }
  end

  def test_recursion_through_c_raises_system_stack_error_in_the_thread
    nested = []
    200_000.times { nested = [nested] }
    assert_equal SystemStackError, raised_in_thread { nested.inspect }
  end

  def test_thread_keeps_working_after_a_stack_overflow
    t = Thread.new do
      begin
        deep(0)
      rescue SystemStackError
      end
      [1, 2, 3].map { |x| x * 2 }
    end
    assert_equal [2, 4, 6], t.value
  end

  def test_uncaught_stack_overflow_is_raised_by_join
    t = Thread.new { deep(0) }
    t.report_on_exception = false
    assert_raise(SystemStackError) { t.join }
  end

  def deeper(n)
    deeper(n + 1)
  end

  # each overflow is its own exception, with its own backtrace (the two threads' at the same time)
  def test_each_overflow_has_its_own_exception_and_backtrace
    first = begin; deep(0); rescue SystemStackError => e; e; end
    second = begin; deeper(0); rescue SystemStackError => e; e; end
    refute first.equal?(second), "the same object"
    assert first.backtrace.first.match?(/deep'?\z/), first.backtrace.first
    assert second.backtrace.first.match?(/deeper'?\z/), second.backtrace.first
    assert_equal "stack level too deep", second.message
    in_threads = [:deep, :deeper].map { |m| Thread.new { begin; send(m, 0); rescue SystemStackError => e; e; end } }.map(&:value)
    refute in_threads[0].equal?(in_threads[1]), "the same object"
    assert in_threads[1].backtrace.first.include?("deeper"), in_threads[1].backtrace.first
  end
end
