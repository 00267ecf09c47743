# Calls to a C method without a block or keywords (Queue#pop and #push in a thread ring): mruby
# patch 0095 pushes the frame and calls the function straight from OP_SEND's plain path, without
# the general call path. Everything that path gave must still hold: an exception raised inside
# the C method has the C method's frame and its caller's at the call line; Thread#raise into a
# thread parked in Queue#pop unwinds through the right frames; a C method redefined in Ruby (or
# removed, or overridden by a prepended module) after a call site ran is not called again; an
# argument given to a method taking none raises CRuby's ArgumentError; `$~` set by a C method is
# its caller's; Fiber#resume/Fiber.yield (C methods that switch the context) still switch. Passes
# on CRuby 3.1 (its labels: `pop'; 3.4's: 'Thread::Queue#pop').

class SendPlainCfuncTest < MnTest::Case
  LABELS_34 = Object.const_defined?(:MNRB_VERSION) || RUBY_VERSION >= "3.4"

  def quoted(label_34, label_31)
    LABELS_34 ? "'#{label_34}'" : "`#{label_31}'"
  end

  def wait_until(what)
    2000.times { return if yield; Thread.pass; sleep 0.001 }
    flunk "timed out waiting for #{what}"
  end

  POP_NB_LINE = __LINE__ + 2
  def pop_from(q)
    q.pop(true)
  end

  # Queue#pop is a C function in mnrb and CRuby 3.1 (CRuby 3.2+ defines it in <internal:thread_sync>)
  def test_an_exception_in_the_c_method_has_its_frame_and_the_callers
    q = Queue.new
    3.times { |i| q << i; assert_equal i, pop_from(q) }   # the site has run: cached
    e = assert_raise(ThreadError) { pop_from(q) }
    assert_equal "queue empty", e.message
    bt = e.backtrace
    assert bt[0].end_with?(quoted("Thread::Queue#pop", "pop")), bt.inspect
    assert bt[0].start_with?("#{__FILE__}:#{POP_NB_LINE}:", "<internal:"), bt.inspect
    assert bt[1].start_with?("#{__FILE__}:#{POP_NB_LINE}:"), bt.inspect
    assert bt[1].end_with?(quoted("SendPlainCfuncTest#pop_from", "pop_from")), bt.inspect
    q << 7
    assert_equal 7, pop_from(q)                    # and the site still works after the raise
  end

  def test_rescue_in_the_caller_then_the_next_call
    q = Queue.new
    5.times do |i|
      e = assert_raise(ThreadError) { q.pop(true) }
      assert_equal "queue empty", e.message
      q << i
      assert_equal i, q.pop
    end
  end

  POP_LINE = __LINE__ + 2
  def pop_here(q)
    q.pop
  end

  def test_thread_raise_into_a_thread_parked_in_queue_pop
    q = Queue.new
    q << 1
    ready = Queue.new
    t = Thread.new do
      pop_here(q)                                  # the site runs once without waiting
      ready << true
      begin
        pop_here(q)
      rescue => e
        e
      end
    end
    ready.pop
    wait_until("the thread to wait") { t.status == "sleep" }
    bt = t.backtrace
    assert bt[0].end_with?(quoted("Thread::Queue#pop", "pop")), bt.inspect
    assert bt[1].start_with?("#{__FILE__}:#{POP_LINE}:"), bt.inspect
    t.raise(RuntimeError, "from outside")
    e = t.value
    assert_kind_of RuntimeError, e
    assert_equal "from outside", e.message
    here = e.backtrace.index { |l| l.end_with?(quoted("SendPlainCfuncTest#pop_here", "pop_here")) }
    assert here, e.backtrace.inspect
    assert e.backtrace[here].start_with?("#{__FILE__}:#{POP_LINE}:"), e.backtrace.inspect
    assert_equal 0, q.size
  end

  class MyQueue < Queue; end

  def size_of(q) = q.size

  def test_a_c_method_redefined_in_ruby_after_the_site_ran
    q = MyQueue.new
    q << 1
    3.times { assert_equal 1, size_of(q) }
    MyQueue.class_eval { def size = :ruby }
    assert_equal :ruby, size_of(q)
    MyQueue.class_eval { remove_method :size }
    assert_equal 1, size_of(q)
    mod = Module.new { def size = [:prepended, super] }
    MyQueue.prepend(mod)
    assert_equal [:prepended, 1], size_of(q)
  end

  def test_a_c_method_removed_after_the_site_ran
    c = Class.new(Array)
    o = c.new([1, 2, 3])
    3.times { assert_equal 3, o.length }
    c.class_eval { undef_method :length }
    e = assert_raise(NoMethodError) { o.length }
    assert_equal :length, e.name
  end

  def test_arguments_given_to_a_c_method_taking_none
    q = Queue.new
    3.times { assert_equal 0, q.size }
    e = assert_raise(ArgumentError) { q.size(1) }
    assert_equal "wrong number of arguments (given 1, expected 0)", e.message
    assert_equal 0, q.size
  end

  def match_here(s)
    s.match(/b+/)
    $~ && $~[0]
  end

  def test_last_match_set_by_a_c_method_is_the_callers
    3.times { assert_equal "bb", match_here("abbc") }
    assert_nil match_here("xyz")
    "zzz" =~ /q/
    assert_nil $~                                  # the callee's $~ stayed in its frame
  end

  def resume_it(f, v) = f.resume(v)

  # Fiber#resume and Fiber.yield are C functions that change the running context (the epilogue
  # continues in the other fiber's frames)
  def test_fiber_switches_through_a_cached_site
    f = Fiber.new do |x|
      5.times { x = Fiber.yield(x * 2) }
      raise ArgumentError, "from the fiber" if x == :boom
      [:done, x]
    end
    got = (1..6).map { |i| resume_it(f, i) }
    assert_equal [2, 4, 6, 8, 10, [:done, 6]], got
    g = Fiber.new { |x| Fiber.yield(x); raise ArgumentError, "from the fiber" }
    resume_it(g, 1)
    e = assert_raise(ArgumentError) { resume_it(g, 2) }
    assert_equal "from the fiber", e.message
    assert_equal false, g.alive?
  end
end
