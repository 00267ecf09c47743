# The paths a block call takes (mruby patch 0046): `yield` to a block with bytecode is called by
# the VM directly (no method search, as CRuby's yield), `blk.call` runs the built-in Proc#call
# without dispatching its one instruction, a block given exactly its required arguments starts
# after its OP_ENTER, and Integer#times/upto/downto, Range#each and Numeric#step (mnrb-compat's
# step.rb) yield. Each test checks what such a shortcut could get wrong: argument shapes,
# block-local variables starting as nil, break/next/redo/return, exceptions, lambdas, C procs, a
# Proc#call redefined or removed, Proc subclasses, preemption of a thread looping in a yield.
# Expected values are CRuby 3.1's (this file passes there too).

class YieldPathsTest < MnTest::Case
  def yield0 = yield
  def yield1(a) = yield(a)
  def yield2(a, b) = yield(a, b)
  def yield3(a, b, c) = yield(a, b, c)
  def yield_splat(ary) = yield(*ary)
  def yield_kw = yield(1, k: 2)
  def call1(a, &blk) = blk.call(a)
  def call2(a, b, &blk) = blk.call(a, b)
  def each_pair_of(n)
    i = 0
    while i < n
      yield i, i + 1
      i += 1
    end
    :done
  end

  def test_yield_arity_shapes_of_a_block
    assert_equal [1, 2], yield2(1, 2) { |a, b| [a, b] }
    assert_equal [1, nil], yield1(1) { |a, b| [a, b] }
    assert_equal 1, yield2(1, 2) { |a| a }
    assert_equal [1, 2], yield1([1, 2]) { |a, b| [a, b] }
    assert_equal [1, 2], yield1([1, 2]) { |a| a }
    assert_equal [1, [2, 3]], yield2(1, [2, 3]) { |a, (b, c)| [a, [b, c]] }
    assert_equal [1, 2, 3], yield2(1, [2, 3]) { |a, (b, c)| [a, b, c] }
    assert_equal [[1, 2, 3]], yield3(1, 2, 3) { |*r| [r] }
    assert_equal [1, [2, 3]], yield3(1, 2, 3) { |a, *r| [a, r] }
    assert_equal [1, 5], yield1(1) { |a, b = 5| [a, b] }
    assert_equal [1, 2], yield2(1, 2) { |a, b = 5| [a, b] }
    assert_equal [1, 2, 3], yield_splat([1, 2, 3]) { |a, b, c| [a, b, c] }
    assert_equal [1, 2], yield_kw { |a, k: 0| [a, k] }
    assert_equal [nil, nil], yield0 { |a, b| [a, b] }
    assert_equal :none, yield2(1, 2) { :none }
    assert_equal [1, nil], yield1(1) { |a, &b| [a, b] }
  end

  def test_block_locals_start_nil_on_every_call
    seen = []
    3.times { |i| x ||= i; seen << x }
    assert_equal [0, 1, 2], seen
    seen = []
    each_pair_of(3) { |a, b| y ||= [a, b]; z = y; seen << z }
    assert_equal [[0, 1], [1, 2], [2, 3]], seen
    seen = []
    3.times { seen << defined?(q).inspect; q = 1; seen << q }
    assert_equal ["nil", 1, "nil", 1, "nil", 1], seen
    big = ->(v) { a1 = a2 = a3 = a4 = a5 = a6 = nil; t = [a1, a2, a3, a4, a5, a6].compact; a6 = v; t }
    assert_equal [[], [], []], [1, 2, 3].map { |v| call1(v, &big) }
  end

  def test_blk_call_shapes_and_values
    sum = 0
    300.times { call1(1) { |x| sum += x } }
    assert_equal 300, sum
    assert_equal [1, 2], call2(1, 2) { |a, b| [a, b] }
    assert_equal [1, 2], call1([1, 2]) { |a, b| [a, b] }
    assert_equal 7, call1(3) { |x| next 7; x }
    assert_equal 3, call1(3, &:itself)
    assert_equal "4", call1(4, &:to_s)
    assert_equal 10, call1(5, &method(:double))
  end

  def double(x) = x * 2

  def test_lambda_passed_as_block_keeps_its_arity
    l = ->(a, b) { [a, b] }
    assert_equal [1, 2], yield2(1, 2, &l)
    assert_raise(ArgumentError) { call1(1, &l) }
    one = ->(a) { a * 3 }
    assert_equal 6, yield1(2, &one)
    acc = []
    3.times(&->(i) { acc << i })
    assert_equal [0, 1, 2], acc
  end

  def test_break_next_redo_return
    assert_equal :broke, each_pair_of(10) { |a, _| break :broke if a == 3 }
    assert_equal :done, each_pair_of(3) { |a, _| next :skipped }
    assert_equal 4, first_over_three
    count = 0
    r = 3.times { |i| count += 1; redo if count == 2 }
    assert_equal [3, 4], [r, count]
    assert_equal 3, 10.times { |i| break i if i == 3 }
    assert_equal 2, 1.upto(5) { |i| break i if i == 2 }
    assert_equal 4, 5.downto(1) { |i| break i if i == 4 }
    assert_equal 6, 0.step(10, 3) { |i| break i if i > 5 }
    assert_equal 7, (1..).each { |i| break i if i == 7 }
    assert_equal 8, (1..10).each { |i| break i if i == 8 }
    assert_equal 9, yield1(1) { break 9 }
  end

  def first_over_three
    (1..10).each { |i| return i if i > 3 }
    :never
  end

  def test_iterators_values_and_returns
    acc = []
    assert_equal 3, 3.times { |i| acc << i }
    assert_equal 1, 1.upto(3) { |i| acc << i }
    assert_equal 3, 3.downto(1) { |i| acc << i }
    assert_equal 0, 0.step(6, 3) { |i| acc << i }
    assert_equal 6, 6.step(0, -3) { |i| acc << i }
    assert_equal 1.0, 1.0.step(2.0, 0.5) { |f| acc << f }
    assert_equal((1...3), (1...3).each { |i| acc << i })
    assert_equal(("a".."c"), ("a".."c").each { |s| acc << s })
    assert_equal [0, 1, 2, 1, 2, 3, 3, 2, 1, 0, 3, 6, 6, 3, 0, 1.0, 1.5, 2.0, 1, 2, "a", "b", "c"], acc
    assert_equal [[0, nil], [1, nil]], 2.times.map { |a, b| [a, b] }
    pairs = []
    2.times { |a, b| pairs << [a, b] }
    assert_equal [[0, nil], [1, nil]], pairs
    assert_equal [0, 1, 2], 3.times.to_a
    assert_equal [1, 2], 1.upto(2).to_a
  end

  class Boom < StandardError; end

  def test_a_block_that_raises
    e = assert_raise(Boom) { each_pair_of(5) { |a, _| raise Boom, "at #{a}" if a == 2 } }
    assert_equal "at 2", e.message
    e = assert_raise(Boom) { 5.times { |i| raise Boom, "t#{i}" if i == 3 } }
    assert_equal "t3", e.message
    got = []
    r = 4.times do |i|
      begin
        raise Boom if i.odd?
        got << i
      rescue Boom
        got << -i
      end
    end
    assert_equal [4, [0, -1, 2, -3]], [r, got]
    assert_equal :rescued, (begin; yield1(0) { |x| 1 / x }; rescue ZeroDivisionError; :rescued; end)
    assert_raise(LocalJumpError) { yield0 }
  end

  class SubProc < Proc
    def call(*) = :subclass_call
  end

  def test_yield_does_not_call_a_redefined_proc_call
    Proc.class_eval do
      alias_method :__yield_paths_orig_call, :call
      define_method(:call) { |*a| [:redefined, *a] }
    end
    begin
      via_call = call1(1) { |x| [:block, x] }
      via_yield = yield1(1) { |x| [:block, x] }
      acc = []
      2.times { |i| acc << i }
      1.upto(2) { |i| acc << i }
      (3..4).each { |i| acc << i }
      0.step(4, 2) { |i| acc << i }
      1.0.step(1.5, 0.5) { |f| acc << f }
      5.step(6, by: 1) { |i| acc << i; break }
    ensure
      Proc.class_eval do
        alias_method :call, :__yield_paths_orig_call
        remove_method :__yield_paths_orig_call
      end
    end
    assert_equal [:redefined, 1], via_call
    assert_equal [:block, 1], via_yield
    assert_equal [0, 1, 1, 2, 3, 4, 0, 2, 4, 1.0, 1.5, 5], acc
    assert_equal [:block, 2], call1(2) { |x| [:block, x] }
  end

  def test_yield_works_with_proc_call_undefined
    Proc.class_eval do
      alias_method :__yield_paths_orig_call, :call
      undef_method :call
    end
    begin
      via_yield = yield2(1, 2) { |a, b| a + b }
      acc = []
      2.times { |i| acc << i }
      (3..4).each { |i| acc << i }
      no_call = (begin; call1(1) { |x| x }; rescue NoMethodError; :no_method; end)
    ensure
      Proc.class_eval do
        alias_method :call, :__yield_paths_orig_call
        remove_method :__yield_paths_orig_call
      end
    end
    assert_equal [3, [0, 1, 3, 4], :no_method], [via_yield, acc, no_call]
  end

  def test_proc_subclass_given_as_block
    pr = SubProc.new { |x| [:block, x] }
    assert_equal :subclass_call, pr.call(1)
    assert_equal [:block, 1], yield1(1, &pr)
    assert_equal 1, 1.times(&pr)
  end

  def test_yield_allocation_under_gc
    strs = []
    each_pair_of(2000) { |a, b| s = "#{a}-#{b}"; GC.start if a % 500 == 0; strs << s }
    assert_equal "1999-2000", strs.last
    assert_equal 2000, strs.uniq.size
    kept = 3.times.map { |i| yield1(i) { |x| [x.to_s * 3] } }
    GC.start
    assert_equal [["000"], ["111"], ["222"]], kept
  end

  def test_yield_from_a_block_and_nested_yields
    r = []
    each_pair_of(2) { |a, b| yield2(a, b) { |x, y| r << x + y } }
    assert_equal [1, 3], r
    deep = ->(n, &blk) { n.zero? ? blk.call(:bottom) : yield1(n) { deep.(n - 1, &blk) } }
    assert_equal :bottom, deep.(50) { |x| x }
  end

  def yield_in_blocks(n)
    r = []
    n.times { |i| 1.upto(1) { |_| r << yield(i, i * 10) } }
    r
  end

  def test_yield_from_inside_blocks_of_the_method
    assert_equal [0, 11, 22], yield_in_blocks(3) { |a, b| a + b }
    assert_equal [[0, 0], [1, 10]], yield_in_blocks(2) { |*ab| ab }
  end

  def test_fiber_yield_from_a_yielded_block
    f = Fiber.new { each_pair_of(3) { |a, b| Fiber.yield [a, b] } }
    assert_equal [[0, 1], [1, 2], [2, 3], :done], [f.resume, f.resume, f.resume, f.resume]
  end

  def test_a_thread_looping_in_yield_is_preempted
    flag = false
    t = Thread.new { each_pair_of(1 << 60) { |a, _| break a if flag } }
    Thread.pass until t.status == "run" || t.status == "sleep" || t.status == false
    flag = true
    assert_kind_of Integer, t.value
  end
end
