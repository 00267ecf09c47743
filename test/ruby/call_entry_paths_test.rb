# Calls entered past their OP_ENTER and returns that skip the general path (mruby patches 0053
# and 0054), and the ivar reads and writes beside them. OP_SEND enters a `def` method taking exactly
# the positional arguments given without running OP_ENTER, and a method taking keywords through
# OP_ENTER's keyword matching, resuming past the parts of the keyword prologue already settled;
# OP_RETURN of a frame without ensure clauses pops it directly. Each test checks what the skipped
# code did: locals start as nil, wrong argument counts raise CRuby's errors, keyword defaults run in
# order (and only when missing), ensure clauses still run, frozen objects refuse ivar writes.
# Expected values are CRuby 3.1's (this file passes there too).

class CallEntryPathsTest < MnTest::Case
  def one(a) = a
  def two(a, b) = [a, b]
  def with_block(a, &b) = [a, b && b.call]
  def late_local(a)
    x = a if a == :never
    y = 1 if a == :never
    [x, y]
  end
  def dirty(a)
    x = a * 2
    z = [x, x, x, x, x, x, x, x, x, x]
    z.size
  end
  def rec(n) = n == 0 ? 0 : 1 + rec(n - 1)
  def ens(log)
    return :body
  ensure
    log << :ensure
  end
  def caller_line = caller_locations(1, 1).first.lineno

  def kw(a:, b: a + 1, c: b * 2) = [a, b, c]
  def kw_order(log, a: (log << :a; 1), b: (log << :b; 2), c: (log << :c; 3)) = [a, b, c]
  def opt_kw(x, y = :y, k: :k) = [x, y, k]
  def kw_rest(a: 1, **r) = [a, r]
  def kw_block(a: 1, &blk) = blk.call(a)
  def rest_kw(a, *r, k: 1) = [a, r, k]

  def test_exact_positional_calls
    assert_equal 5, one(5)
    assert_equal [1, 2], two(1, 2)
    assert_equal [1, :blk], with_block(1) { :blk }
    assert_equal [1, nil], with_block(1)
  end

  def test_locals_start_as_nil
    10.times { |i| dirty(i) }   # leave values in the registers a new frame reuses
    assert_equal [nil, nil], late_local(:x)
    dirty(3)
    assert_equal [nil, nil], late_local(:y)
  end

  def test_wrong_argument_counts
    e = assert_raise(ArgumentError) { one }
    assert_equal "wrong number of arguments (given 0, expected 1)", e.message
    e = assert_raise(ArgumentError) { two(1) }
    assert_equal "wrong number of arguments (given 1, expected 2)", e.message
    e = assert_raise(ArgumentError) { one(1, 2) }
    assert_equal "wrong number of arguments (given 2, expected 1)", e.message
  end

  def test_non_lambda_methods_keep_proc_arity
    klass = Class.new { define_method(:pm) { |a, b| [a, b] } }
    assert_equal [1, 2], klass.new.pm(1, 2)
    assert_raise(ArgumentError) { klass.new.pm(1) }
  end

  def test_redefinition_between_calls
    klass = Class.new { def m(a) = a }
    o = klass.new
    assert_equal 1, o.m(1)
    klass.class_eval { def m(a, b = 2) = [a, b] }
    assert_equal [1, 2], o.m(1)
    klass.class_eval { def m(a) = a * 10 }
    assert_equal 10, o.m(1)
  end

  def test_returns
    assert_equal 1000, rec(1000)
    log = []
    assert_equal :body, ens(log)
    assert_equal [:ensure], log
    assert_equal __LINE__, caller_line
    assert_raise(SystemStackError) { rec(10_000_000) }
    assert_equal 3, rec(3)
  end

  def test_return_through_blocks_and_initialize
    klass = Class.new do
      attr_reader :v
      def initialize(v) = @v = v
      def find(xs) = xs.each { |x| return x if x > 1 }
    end
    assert_equal 7, klass.new(7).v
    assert_equal 2, klass.new(0).find([1, 2, 3])
    assert_equal [1], klass.new(0).find([1])
  end

  def test_keyword_defaults_see_earlier_keywords
    assert_equal [1, 2, 4], kw(a: 1)
    assert_equal [1, 5, 10], kw(a: 1, b: 5)
    assert_equal [1, 5, 7], kw(c: 7, b: 5, a: 1)
    assert_equal [1, 2, 9], kw(a: 1, c: 9)
  end

  def test_keyword_defaults_run_in_order_only_when_missing
    log = []
    assert_equal [1, 2, 3], kw_order(log)
    assert_equal [:a, :b, :c], log
    log = []
    assert_equal [1, 20, 3], kw_order(log, b: 20)
    assert_equal [:a, :c], log
    log = []
    assert_equal [10, 20, 30], kw_order(log, c: 30, a: 10, b: 20)
    assert_equal [], log
  end

  def test_optional_positional_beside_keywords
    assert_equal [1, :y, :k], opt_kw(1)
    assert_equal [1, 2, :k], opt_kw(1, 2)
    assert_equal [1, :y, 3], opt_kw(1, k: 3)
    assert_equal [1, 2, 3], opt_kw(1, 2, k: 3)
  end

  def test_keyword_errors
    e = assert_raise(ArgumentError) { kw }
    assert_equal "missing keyword: :a", e.message
    e = assert_raise(ArgumentError) { kw(a: 1, d: 2) }
    assert_equal "unknown keyword: :d", e.message
    e = assert_raise(ArgumentError) { kw(a: 1, d: 2, e: 3) }
    assert_equal "unknown keywords: :d, :e", e.message
    e = assert_raise(ArgumentError) { one(1, k: 2) }
    assert_equal "wrong number of arguments (given 2, expected 1)", e.message
    h = {k: 2}
    e = assert_raise(ArgumentError) { one(1, **h) }
    assert_equal "wrong number of arguments (given 2, expected 1)", e.message
    assert_equal 1, one(1, **{})
    assert_equal [1, {k: 2}], two(1, **h)
    e = assert_raise(ArgumentError) { two(1, 2, **h) }
    assert_equal "wrong number of arguments (given 3, expected 2)", e.message
    e = assert_raise(ArgumentError) { opt_kw(k: 1) }
    assert_equal "wrong number of arguments (given 0, expected 1..2)", e.message
    e = assert_raise(ArgumentError) { opt_kw(1, 2, 3, k: 1) }
    assert_equal "wrong number of arguments (given 3, expected 1..2)", e.message
    e = assert_raise(ArgumentError) { rest_kw(k: 2) }
    assert_equal "wrong number of arguments (given 0, expected 1+)", e.message
    assert_equal [1, [2], 3], rest_kw(1, 2, k: 3)
    e = assert_raise(ArgumentError) { kw_rest(1) }
    assert_equal "wrong number of arguments (given 1, expected 0)", e.message
  end

  def test_keywords_to_rest_send_and_blocks
    assert_equal [1, {b: 2}], kw_rest(b: 2)
    assert_equal [3, {}], kw_rest(a: 3)
    assert_equal [1, 2, 4], send(:kw, a: 1)
    assert_equal [1, 2, 3], public_send(:kw, a: 1, c: 3)
    assert_equal 6, kw_block(a: 3) { |x| x * 2 }
    assert_equal 2, kw_block { |x| x * 2 }
    blk = proc { |a:, b: a| [a, b] }
    assert_equal [1, 1], blk.call(a: 1)
    assert_equal [1, 2], blk.call(a: 1, b: 2)
  end

  def test_keywords_through_super_and_method_missing
    base = Class.new { def m(a:, b: 2) = [a, b] }
    sub = Class.new(base) do
      def m(a:, b: 3) = super
      def method_missing(name, *args, **kw) = [name, args, kw]
      def respond_to_missing?(*) = true
    end
    assert_equal [1, 3], sub.new.m(a: 1)
    assert_equal [1, 4], sub.new.m(a: 1, b: 4)
    assert_equal [:nope, [1], {k: 2}], sub.new.nope(1, k: 2)
  end

  class Counter
    attr_accessor :count
    def initialize
      @count = 0
      @a = @b = @c = @d = @e = @f = nil
    end
    def bump(v)
      @count += v
      @f = @e
      @e = @d
      @d = @c
      @c = @b
      @b = @a
      @a = @count
    end
    def state = [@a, @b, @c, @d, @e, @f]
    def set(v) = @count = v
  end

  def test_ivars_many_and_shifted
    c = Counter.new
    6.times { |i| c.bump(i + 1) }
    assert_equal [21, 15, 10, 6, 3, 1], c.state
    c.count = 5
    assert_equal 5, c.count
    assert_equal 5, c.instance_variable_get(:@count)
    c.instance_variable_set(:@count, 8)
    assert_equal 8, c.count
    assert_equal true, c.instance_variable_defined?(:@e)
    assert_equal 3, c.remove_instance_variable(:@e)
    assert_nil c.instance_variable_get(:@e)
    assert_equal [21, 15, 10, 6, nil, 1], c.state
    c.bump(1)
    assert_equal [9, 21, 15, 10, 6, nil], c.state
  end

  def test_ivars_on_subclasses_and_frozen_objects
    sub = Class.new(Counter) { def extra = (@z = 1; @z + @count) }
    s = sub.new
    s.bump(2)
    assert_equal 3, s.extra
    s.freeze
    assert_raise(FrozenError) { s.bump(1) }
    assert_raise(FrozenError) { s.count = 1 }
    assert_raise(FrozenError) { s.set(1) }
    assert_equal 2, s.count
  end

  def test_ivar_writes_under_gc_stress
    c = Counter.new
    GC.stress = true
    begin
      20.times { |i| c.set("v#{i}"); c.bump("") rescue nil; c.count = [i.to_s] }
    ensure
      GC.stress = false
    end
    GC.start
    assert_equal ["19"], c.count
    assert_equal ["19"], c.instance_variable_get(:@count)
  end
end
