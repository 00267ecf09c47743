# A Fiber suspends whatever C frames are between its start and its Fiber.yield, as CRuby's fibers
# (each has its own machine stack) always can: Enumerator#next and #peek over methods written in C
# that call a block (sort_by, gsub, ObjectSpace.each_object, Array#sort with a block...), and
# Fiber.yield from a block such a method calls. mruby's fibers refused it with FiberError "can't
# cross C function boundary". Expectations checked on CRuby 3.1 and 3.3.8.

class FiberCBoundaryTest < MnTest::Case
  def test_sort_by_next_returns_the_first_element
    assert_equal 3, [3, 1].sort_by.next
  end

  def test_gsub_without_a_block_enumerates_the_matches
    e = "ab".gsub(/./)
    assert_equal "a", e.next
    assert_equal "b", e.peek
    assert_equal "b", e.next
    assert_raise(StopIteration) { e.next }
  end

  def test_each_object_next_yields_a_class
    assert_equal Class, ObjectSpace.each_object(Class).next.class
  end

  def test_array_sort_with_a_block_enumerates_pairs
    e = Enumerator.new { |y| [2, 1].sort { |a, b| y << [a, b]; a <=> b } }
    assert_equal [2, 1], e.next
  end

  def test_enum_for_inject_passes_the_memo_and_element
    assert_equal [3, 1], [3, 1, 2].enum_for(:inject).next
  end

  def test_array_new_with_a_block_enumerates_indexes
    e = Array.enum_for(:new, 2)
    assert_equal [0, 1], [e.next, e.next]
  end

  def test_sort_by_enumerator_ends_with_stop_iteration_and_rewinds
    e = [3, 1].sort_by
    assert_equal [3, 1], [e.next, e.next]
    assert_raise(StopIteration) { e.next }
    e.rewind
    assert_equal 3, e.next
  end

  def test_fiber_yield_from_a_block_a_c_method_calls
    f = Fiber.new { [2, 1].sort_by { |x| Fiber.yield x } ; :done }
    assert_equal 2, f.resume
    assert_equal 1, f.resume(20)
    assert_equal :done, f.resume(10)
    refute f.alive?
  end

  def test_sort_by_gets_the_keys_resume_passes
    f = Fiber.new { %w[a b c].sort_by { |x| Fiber.yield x } }
    f.resume
    f.resume 3
    f.resume 1
    assert_equal %w[b c a], f.resume(2)
  end

  def test_nested_enumerators_each_across_c
    inner = [30, 10].sort_by
    outer = Enumerator.new { |y| [2, 1].sort_by { |x| y << [x, inner.next]; x } }
    assert_equal [[2, 30], [1, 10]], [outer.next, outer.next]
  end

  def test_exception_in_the_block_reaches_resume_and_ends_the_fiber
    f = Fiber.new { [1].sort_by { raise ArgumentError, "boom" } }
    e = assert_raise(ArgumentError) { f.resume }
    assert_equal "boom", e.message
    refute f.alive?
  end

  def test_exception_after_a_yield_reaches_the_next_resume
    f = Fiber.new { [1, 2].sort_by { |x| Fiber.yield x; raise "second" if x == 2; x } }
    assert_equal 1, f.resume
    assert_equal 2, f.resume
    assert_raise(RuntimeError) { f.resume }
  end

  def test_exception_raised_by_next_is_the_enumerators
    e = Enumerator.new { |y| [1].sort_by { y << 1; raise IndexError, "in block" } }
    assert_equal 1, e.next
    assert_equal "in block", assert_raise(IndexError) { e.next }.message
  end

  def test_rescue_inside_the_fiber_across_c_frames
    f = Fiber.new do
      [1].sort_by { begin; Fiber.yield :in; raise "x"; rescue => e; Fiber.yield e.message; end; 0 }
      :end
    end
    assert_equal [:in, "x", :end], [f.resume, f.resume, f.resume]
  end

  def test_break_out_of_a_block_inside_the_fiber
    f = Fiber.new { r = [1, 2, 3].sort_by { |x| break :broke if x == 2; Fiber.yield x; x }; [:r, r] }
    assert_equal 1, f.resume
    assert_equal [:r, :broke], f.resume
  end

  def return_from_a_fiber
    Fiber.new { return 7 }.resume
  end

  def test_break_or_return_out_of_the_fibers_own_block_is_a_local_jump_error
    assert_equal "break from proc-closure", assert_raise(LocalJumpError) { Fiber.new { break 5 }.resume }.message
    assert_raise(LocalJumpError) { return_from_a_fiber }
    assert_equal 6, Fiber.new { [1].sort_by { break 6 } }.resume
  end

  def test_loop_ends_at_stop_iteration_of_a_c_enumerator
    e = "abc".gsub(/./)
    got = []
    loop { got << e.next }
    assert_equal %w[a b c], got
  end

  def test_queue_pop_parks_the_thread_inside_the_fiber
    q = Queue.new
    e = Enumerator.new { |y| [1].sort_by { y << q.pop } }
    t = Thread.new { q << 42 }
    assert_equal 42, e.next
    t.join
  end

  def test_sleep_in_next_blocks_of_two_threads
    ts = 2.times.map do |i|
      Thread.new do
        e = Enumerator.new { |y| [1, 2, 3].sort_by { |x| sleep 0.001; y << x * 10 + i; x } }
        [e.next, e.next, e.next]
      end
    end
    assert_equal [[10, 20, 30], [11, 21, 31]], ts.map(&:value)
  end

  def test_threads_pass_inside_fibers
    ts = 4.times.map do |i|
      Thread.new do
        e = Enumerator.new { |y| (1..50).sort_by { |x| Thread.pass; y << x + i; x } }
        50.times.map { e.next }.sum
      end
    end
    assert_equal 4.times.map { |i| 1275 + 50 * i }, ts.map(&:value)
  end

  def test_thread_killed_while_parked_inside_a_fiber
    q = Queue.new
    t = Thread.new { Enumerator.new { |y| [1].sort_by { y << q.pop } }.next }
    wait_until("the thread to block in the fiber") { t.stop? }
    t.kill
    t.join
    assert_equal false, t.status
  end

  def test_thread_raise_while_parked_inside_a_fiber_reaches_the_threads_next
    q = Queue.new
    t = Thread.new do
      Thread.current.report_on_exception = false
      Enumerator.new { |y| [1].sort_by { y << q.pop } }.next
    end
    wait_until("the thread to block in the fiber") { t.stop? }
    t.raise(IOError, "from outside")
    assert_equal "from outside", assert_raise(IOError) { t.value }.message
  end

  def test_fiber_called_across_threads
    f = Fiber.new { Fiber.yield 1; 2 }
    f.resume
    e = Thread.new { Thread.current.report_on_exception = false; f.resume }
    assert_raise(FiberError) { e.value }
  end

  def test_gc_stress_while_suspended_in_c_frames
    e = "abcd".gsub(/./)
    f = Fiber.new { "abcd".gsub(/./) { |m| Fiber.yield(m); m.upcase + "x" * 30 } }
    s = Fiber.new { %w[d c b a].map { |x| x * 20 }.sort_by { |x| Fiber.yield(x); x } }
    got = []
    GC.stress = true
    begin
      4.times do
        got << e.next
        f.resume
        s.resume
        GC.start
      end
      r1 = f.resume
      r2 = s.resume
    ensure
      GC.stress = false
    end
    assert_equal %w[a b c d], got
    assert_equal "A" + "x" * 30 + "B" + "x" * 30 + "C" + "x" * 30 + "D" + "x" * 30, r1
    assert_equal %w[a b c d].map { |x| x * 20 }, r2
  end

  def test_abandoned_enumerators_are_collected
    3000.times { |i| e = [i, 2].sort_by; e.next }
    GC.start
    assert_equal 7, [7, 1].sort_by.next
  end

  def deep_through_c(n)
    [n].sort_by { deep_through_c(n + 1) }
  end

  def test_recursion_through_c_inside_a_fiber_raises_system_stack_error
    f = Fiber.new { deep_through_c(0) }
    assert_raise(SystemStackError) { f.resume }
    refute f.alive?
    assert_equal 2, [2, 1].sort_by.next
  end

  def deep_ruby(n)
    deep_ruby(n + 1) + 1
  end

  def test_ruby_recursion_inside_a_fiber_raises_system_stack_error
    assert_raise(SystemStackError) { Fiber.new { deep_ruby(0) }.resume }
  end

  def test_fiber_yield_at_the_root_fiber
    assert_raise(FiberError) { Fiber.yield 1 }
  end

  def test_resuming_a_dead_fiber
    f = Fiber.new { [1].sort_by { 1 } }
    f.resume
    assert_raise(FiberError) { f.resume }
  end

  def test_fiber_error_messages_are_crubys
    f = Fiber.new { [1].sort_by { 1 } }
    f.resume
    assert_equal "attempt to resume a terminated fiber", assert_raise(FiberError) { f.resume }.message
    assert_equal "attempt to yield on a not resumed fiber", assert_raise(FiberError) { Fiber.yield }.message
    root = Fiber.current
    g = Fiber.new { [1].sort_by { root.resume } }
    assert_equal "attempt to resume a resuming fiber", assert_raise(FiberError) { g.resume }.message
    h = Fiber.new { [1].sort_by { Fiber.yield 1 } }
    h.resume
    assert_equal "attempt to transfer to a yielding fiber", assert_raise(FiberError) { h.transfer }.message
  end

  def test_fiber_resumed_twice_is_a_double_resume
    f = Fiber.new { [1].sort_by { f.resume } }
    assert_raise(FiberError) { f.resume }
  end

  def test_fiber_arguments_and_keywords
    f = Fiber.new { |a, b, k: 0| [1].sort_by { Fiber.yield [a, b, k] } }
    assert_equal [1, 2, 3], f.resume(1, 2, k: 3)
  end

  def test_many_arguments_to_a_fiber
    f = Fiber.new { |*a| [1].sort_by { Fiber.yield a.sum } }
    assert_equal 120, f.resume(*1..15)
  end

  def test_fiber_self_is_the_blocks
    f = Fiber.new { [1].sort_by { Fiber.yield self } }
    assert_same self, f.resume
  end

  def test_block_run_by_instance_exec_on_an_integer_yields_and_returns
    e = Enumerator.new { |y| 1.instance_exec { y << self } }
    assert_equal 1, e.next
    assert_raise(StopIteration) { e.peek }
  end

  def test_transfer_across_c_frames
    root = Fiber.current
    f = Fiber.new { [1].sort_by { root.transfer(:from_f) }; :end }
    assert_equal :from_f, f.transfer
    assert_equal :end, f.transfer
    refute f.alive?
  end

  def test_suspended_enumerator_continues_in_a_forked_child
    fork_allowed!
    e = [5, 4, 3].sort_by
    assert_equal 5, e.next
    status, out = forked_output(30) { |o| o.puts [e.next, e.next].inspect }
    assert_equal [0, "[4, 3]\n"], [status, out]
    assert_equal 4, e.next
  end

  def test_fork_inside_a_fiber_runs_threads_and_fibers_in_the_child
    fork_allowed!
    e = Enumerator.new do |y|
      [1].sort_by { y << forked_output(30) { |o| q = Queue.new; Thread.new { q << 7 }; o.puts [q.pop, [9, 8].sort_by.next].inspect } }
    end
    assert_equal [0, "[7, 9]\n"], e.next
  end

  def test_next_in_a_non_main_ractor
    r = Ractor.new { e = "xy".gsub(/./); [e.next, [2, 1].sort_by.next] }
    assert_equal ["x", 2], r.take
  end
end
