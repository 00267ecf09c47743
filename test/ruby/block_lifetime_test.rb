# The lifetime of blocks and of the locals they close over: a block that outlives the method
# that made it (returned, stored, captured by &blk, define_method, Proc.new-style conversions)
# must keep seeing and changing that method's locals after it returned, and a block that is
# only yielded to must behave the same way while the garbage collector runs at every turn.
# break/next/return from blocks, procs and lambdas, with CRuby's LocalJumpError messages;
# Fibers, Enumerators and Threads holding blocks. The VM may keep a block's frame and variables
# on its stack while the block cannot be reached from elsewhere (mruby patch 0063): each test
# here reaches a block after its frame is gone, or collects garbage while it is live.

class BlockLifetimeTest < MnTest::Case
  def counter_pair
    n = 0
    [-> { n += 1 }, -> { n }]
  end

  def test_closure_sees_locals_after_method_returned
    inc, get = counter_pair
    3.times { inc.call }
    churn
    assert_equal 3, get.call
  end

  def keep(&blk) = blk

  def made_by_yielding_method
    x = 10
    each_twice { |i| x += i }       # a block only yielded to
    kept = keep { x }               # a block captured by &blk
    [x, kept]
  end

  def each_twice
    yield 1
    yield 2
  end

  def test_block_captured_by_amp_after_yielded_block
    x, kept = made_by_yielding_method
    churn
    assert_equal 13, x
    assert_equal 13, kept.call
  end

  def pass_down(&blk) = keep(&blk)

  def test_block_passed_down_then_captured
    v = 5
    b = pass_down { v * 2 }
    churn
    v = 7
    assert_equal 14, b.call
  end

  def yield_through(&blk)
    each_twice(&blk)
  end

  def test_block_passed_down_and_yielded_only
    sum = 0
    yield_through { |i| sum += i }
    assert_equal 3, sum
  end

  def test_block_given_and_proc_from_block_given
    assert_equal false, given?
    assert_equal true, given? { }
  end

  def given? = block_given?

  class Definer
    def self.make(name, v)
      define_method(name) { v + 1 }
    end
  end

  def test_define_method_keeps_locals
    Definer.make(:eleven, 10)
    churn
    assert_equal 11, Definer.new.eleven
  end

  def test_instance_exec_and_class_eval
    o = Object.new
    o.instance_variable_set(:@a, 4)
    k = 3
    assert_equal 7, o.instance_exec { @a + k }
    c = Class.new
    c.class_eval { define_method(:k) { k } }
    churn
    assert_equal 3, c.new.k
  end

  def find_first(ary)
    ary.each { |x| return x if x > 2 }
    nil
  end

  def test_return_break_next_from_blocks
    assert_equal 3, find_first([1, 2, 3, 4])
    assert_equal :b, [1, 2].each { break :b }
    assert_equal [2, 4], [1, 2].map { |x| next x * 2 }
  end

  def make_proc_with_return = proc { return 1 }
  def make_proc_with_break = proc { break 2 }

  def test_local_jump_errors_as_cruby
    e = assert_raise(LocalJumpError) { make_proc_with_return.call }
    assert_equal "unexpected return", e.message
    e = assert_raise(LocalJumpError) { make_proc_with_break.call }
    assert_equal "break from proc-closure", e.message
    e = assert_raise(LocalJumpError) { each_twice }
    assert_equal "no block given (yield)", e.message
  end

  def test_lambda_return_and_break
    l = lambda { return 5 }
    assert_equal 5, l.call
    l2 = lambda { break 6 }
    assert_equal 6, l2.call
  end

  def fiber_of
    x = 0
    f = Fiber.new do
      3.times { |i| x += i; Fiber.yield x }
      :done
    end
    [f, -> { x }]
  end

  def test_fiber_holds_block_after_method_returned
    f, get = fiber_of
    churn
    assert_equal [0, 1, 3, :done], 4.times.map { f.resume }
    assert_equal 3, get.call
  end

  def gen(n)
    seen = []
    e = Enumerator.new { |y| n.times { |i| seen << i; y << i * i } }
    [e, seen]
  end

  def test_enumerator_external_iteration
    e, seen = gen(3)
    churn
    assert_equal 0, e.next
    assert_equal 1, e.next
    churn
    assert_equal 4, e.next
    assert_raise(StopIteration) { e.next }
    assert_equal [0, 1, 2], seen
  end

  def spawn_adder(q)
    total = 0
    t = Thread.new { q.times { |i| total += i } }
    [t, -> { total }]
  end

  def test_block_crosses_thread_new
    t, get = spawn_adder(100)
    t.join
    churn
    assert_equal 4950, get.call
  end

  def safe?(cols, row, col)
    cols.each_with_index do |c, r|
      return false if c == col || (row - r).abs == (col - c).abs
    end
    true
  end

  def solve(n, cols = [])
    return 1 if cols.size == n
    count = 0
    n.times do |col|
      if safe?(cols, cols.size, col)
        cols.push(col)
        count += solve(n, cols)
        garbage = Array.new(4) { |i| "s#{i}" }   # allocation inside the yielded-to blocks
        cols.pop
        garbage.clear
      end
    end
    count
  end

  def test_yielded_blocks_under_allocation
    assert_equal 4, solve(6)
    assert_equal 92, solve(8)
  end

  def twice(&blk)
    blk.call(1)
    blk.call(2)
  end

  def test_amp_blocks_called_many_times_under_allocation
    sum = 0
    kept = []
    2000.times do |i|
      twice { |x| sum += x; "g#{x}" }
      kept << proc { i } if i % 100 == 0
    end
    churn
    assert_equal 6000, sum
    assert_equal (0...2000).step(100).to_a, kept.map(&:call)
  end

  def nested_capture
    a = 1
    outer = nil
    each_twice do |i|
      b = i
      each_twice do |j|
        outer = -> { [a, b, j] } if i == 2 && j == 1
      end
    end
    outer
  end

  def test_nested_block_captured_from_inner_yield
    l = nested_capture
    churn
    assert_equal [1, 2, 1], l.call
  end

  def binding_of
    secret = 42
    each_twice { |i| secret += 0 }
    binding
  end

  def test_binding_after_return
    b = binding_of
    churn
    assert_equal 42, b.local_variable_get(:secret)
  end

  def yields_then_binding(x)
    b = binding
    yield
    b
  end

  def test_binding_of_a_yielding_method_after_return
    n = 0
    b = yields_then_binding(5) { n += 1 }
    churn
    assert_equal 5, b.local_variable_get(:x)
    assert_equal 1, n
  end

  def proc_over_local(v)
    each_twice { |i| v += i }
    eval("proc { v }")
  end

  def test_eval_proc_sees_locals_after_return
    pr = proc_over_local(39)
    churn
    assert_equal 42, pr.call
  end

  def class_with_yielding_method
    k = Class.new
    k.define_method(:f) { yield }
    k
  end

  def test_define_method_body_yields_to_the_outer_block
    s = "out"
    k = class_with_yielding_method { s + "er" }
    churn
    assert_equal "outer", k.new.f
  end

  class Base
    def m = yield(1)
    def n(x) = yield(x)
  end

  class Zsuper < Base
    def m = super
    def n(x) = super(x + 1)
  end

  def test_super_passes_the_block
    t = 10
    assert_equal 11, Zsuper.new.m { |v| v + t }
    assert_equal 13, Zsuper.new.n(2) { |v| v + t }
  end

  def thread_that_yields_later(q)
    Thread.new { q.pop; yield }
  end

  def test_thread_yields_after_the_method_returned
    q = Queue.new
    hits = []
    t = thread_that_yields_later(q) { hits << :ran }
    churn
    q << :go
    t.join
    assert_equal [:ran], hits
  end

  def fiber_that_yields
    Fiber.new { yield 1; Fiber.yield :mid; yield 2; :end }
  end

  def test_fiber_yields_after_the_method_returned
    acc = []
    f = fiber_that_yields { |v| acc << v }
    churn
    assert_equal :mid, f.resume
    churn
    assert_equal :end, f.resume
    assert_equal [1, 2], acc
  end

  def test_binding_taken_inside_a_yielded_block
    outer = :before
    b = nil
    each_twice { |i| b = binding if i == 2 }
    outer = :after
    churn
    assert_equal :after, b.local_variable_get(:outer)
    assert_equal 2, b.local_variable_get(:i)
  end

  def call_twice(&blk)
    blk.call(1)
    blk.call(2)
  end

  def test_amp_block_called_then_kept_by_the_callee_block
    kept = []
    call_twice { |x| kept << proc { x * 10 } }
    churn
    assert_equal [10, 20], kept.map(&:call)
  end

  def test_break_out_of_a_yielded_block_and_after_return
    assert_equal :stop, each_twice { |i| break :stop if i == 1 }
    blk = nil
    each_twice { |i| blk ||= proc { break i } }
    e = assert_raise(LocalJumpError) { blk.call }
    assert_equal "break from proc-closure", e.message
  end

  def test_gc_at_every_turn_of_nested_yields
    total = 0
    300.times do |i|
      each_twice do |j|
        each_twice { |k| total += i * j * k; GC.start if (i + j + k) % 97 == 0 }
      end
    end
    assert_equal 9 * (0...300).sum, total
  end

  def proc_that_yields
    pr = proc { yield }
    yield
    pr
  end

  def block_maker(x)
    proc_that_yields { x += 1 }
  end

  def test_block_reached_through_a_kept_env_after_its_maker_returned
    pr = block_maker(10)   # the block ran once inside proc_that_yields
    churn
    assert_equal 12, pr.call
    assert_equal 13, pr.call
  end

  def test_gc_stress_while_blocks_are_made_yielded_and_kept
    kept = []
    sum = 0
    GC.stress = true
    begin
      20.times do |i|
        each_twice { |j| sum += i * j }
        call_twice { |x| sum += x }
        kept << block_maker(i) if i % 5 == 0
      end
      got = kept.map(&:call)
    ensure
      GC.stress = false
    end
    assert_equal 3 * (0...20).sum + 3 * 20, sum
    assert_equal [2, 7, 12, 17], got
  end

  def test_threads_preempted_inside_yielded_blocks
    threads = 3.times.map do |k|
      Thread.new do
        r = []
        40.times { r << solve(6) + k; kept = block_maker(k); r << kept.call }
        r
      end
    end
    threads.each_with_index do |t, k|
      assert_equal [4 + k, k + 2] * 40, t.value
    end
  end

  def block_or_default(&blk)
    f = blk || proc { :none }
    f
  end

  def make_with_or(v) = block_or_default { v * 3 }

  def test_block_kept_through_an_or_expression
    pr = make_with_or(5)
    churn
    assert_equal 15, pr.call
    assert_equal :none, block_or_default.call
  end

  def maker_for_object_space(v)
    got = nil
    each_twice do |a, b, c, d, e|
      # CRuby has no Proc object for this block unless something asks for one: got stays nil
      got = find_arity5_proc if a == 1   # a method: no block made inside this one
      v += 0
    end
    got
  end

  def find_arity5_proc
    got = nil
    ObjectSpace.each_object(Proc) { |pr| got = pr if pr.arity == 5 && !pr.lambda? }
    got
  end

  def test_block_found_by_object_space_while_live
    got = maker_for_object_space(7)
    churn
    # blocks made by earlier calls and not collected yet are not listed either
    ObjectSpace.each_object(Proc) { |pr| pr.call(1, 2, 3, 4, 5) if pr.arity == 5 && !pr.lambda? && pr != got }
    assert_equal 7, got.call(1, 2, 3, 4, 5) if got
  end

  def churn
    200.times { |i| Array.new(50) { |j| "x#{i}#{j}" } }
    GC.start
  end
end
