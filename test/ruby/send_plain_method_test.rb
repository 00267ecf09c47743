# Calls to a `def` method with only required arguments, no block and no keywords (fib's calls),
# and returns from such frames: mruby patches 0081 (OP_SEND/OP_SSEND enter the method before the
# general call path) and 0082 (OP_RETURN pops a frame without a block or env itself). Everything
# the general path did must still happen: arity errors with CRuby's messages, method_missing,
# super from a method found in an ancestor, redefinition between calls, locals kept by a closure
# after the frame returned, fresh locals, backtraces, deep recursion. Passes on CRuby 3.1.

class SendPlainMethodTest < MnTest::Case
  class Base
    def g(x) = [:base, x]
    def one(a) = a
    def two(a, b) = [a, b]
  end

  class Mid < Base
    def g(x) = [:mid, super(x)]
  end

  class Leaf < Mid; end

  def fib(n)
    n < 2 ? n : fib(n - 1) + fib(n - 2)
  end

  def test_recursion_gives_the_same_values
    assert_equal [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55], (0..10).map { |i| fib(i) }
    assert_equal 6765, fib(20)
  end

  def test_arity_errors_have_cruby_messages
    o = Base.new
    o.one(1)   # fills the method cache entry
    e = assert_raise(ArgumentError) { o.one }
    assert_equal "wrong number of arguments (given 0, expected 1)", e.message
    e = assert_raise(ArgumentError) { o.one(1, 2) }
    assert_equal "wrong number of arguments (given 2, expected 1)", e.message
    e = assert_raise(ArgumentError) { o.two(1) }
    assert_equal "wrong number of arguments (given 1, expected 2)", e.message
    assert_equal [1, 2], o.two(1, 2)
    assert_equal 3, o.one(3)
  end

  def test_super_from_a_method_found_in_an_ancestor
    o = Leaf.new
    3.times { assert_equal [:mid, [:base, 7]], o.g(7) }
    assert_equal [:mid, [:base, 1]], Mid.new.g(1)
  end

  class Ghost
    def method_missing(name, *args)
      [:missing, name, args]
    end

    def respond_to_missing?(*) = true

    def call_it(x) = spooky(x)
  end

  def test_method_missing_then_a_real_method
    o = Ghost.new
    assert_equal [:missing, :spooky, [1]], o.call_it(1)
    assert_equal [:missing, :spooky, [2]], o.call_it(2)
    Ghost.class_eval { def spooky(x) = [:real, x] }
    assert_equal [:real, 3], o.call_it(3)
    Ghost.class_eval { remove_method :spooky }
    assert_equal [:missing, :spooky, [4]], o.call_it(4)
  end

  class Redef
    def v(x) = x + 1
    def run(x) = v(x)
  end

  def test_a_method_redefined_between_calls
    o = Redef.new
    assert_equal 2, o.run(1)
    assert_equal 3, o.run(2)
    Redef.class_eval { def v(x) = x * 10 }
    assert_equal 30, o.run(3)
    Redef.class_eval { def v(x, y = 5) = x + y }   # not a plain method any more
    assert_equal 8, o.run(3)
    Redef.class_eval { def v(x) = -x }
    assert_equal(-3, o.run(3))
    def o.v(x) = [:singleton, x]
    assert_equal [:singleton, 4], o.run(4)
    assert_equal(-4, Redef.new.run(4))
  end

  def keep(a)
    b = a * 2
    inc = -> { b += 1 }
    inc.call
    [b, inc]
  end

  def test_locals_captured_by_a_closure_outlive_the_frame
    b, inc = keep(5)
    assert_equal 11, b
    assert_equal 12, inc.call
    fib(10)                  # the same registers used by other frames
    assert_equal 13, inc.call
    b2, inc2 = keep(1)
    assert_equal [3, 4, 14], [b2, inc2.call, inc.call]
  end

  def dirty(a)
    x = a
    y = [a]
    z = "#{a}"
    [x, y, z]
  end

  def fresh(a)
    if a == :never
      x = 1
      y = 2
      z = 3
    end
    [a, x, y, z]
  end

  def test_locals_start_as_nil
    dirty(42)
    assert_equal [0, nil, nil, nil], fresh(0)
    dirty(43)
    assert_equal [1, nil, nil, nil], fresh(1)
  end

  def with_block_param(a, &b) = [a, b && b.call]

  def test_a_block_parameter_without_a_block
    assert_equal [1, nil], with_block_param(1)
    assert_equal [2, :blk], with_block_param(2) { :blk }
    assert_equal [3, nil], with_block_param(3)
  end

  def depth(n) = n == 0 ? 0 : 1 + depth(n - 1)

  def test_deep_recursion_grows_the_stack
    assert_equal 5000, depth(5000)
    assert_equal 3, depth(3)
  end

  def forever(n) = forever(n + 1)

  def test_endless_recursion_raises
    assert_raise(SystemStackError) { forever(0) }
    assert_equal 10, depth(10)
  end

  RAISER_LINE = __LINE__ + 2
  def raiser(x)
    raise ArgumentError, "bad #{x}"
  end

  def middle(x)
    raiser(x)
  end

  def test_backtraces_through_the_calls
    line = RAISER_LINE
    e = assert_raise(ArgumentError) { middle(1) }
    assert_equal "bad 1", e.message
    assert(/:#{line}:in .*raiser'/ =~ e.backtrace[0], e.backtrace[0].inspect)
    assert(/:#{line + 4}:in .*middle'/ =~ e.backtrace[1], e.backtrace[1].inspect)
    assert(/:#{__LINE__ - 4}:in / =~ e.backtrace[2], e.backtrace[2].inspect)
  end

  def caller_line(x) = caller(0, 2)

  def test_caller_sees_the_call_site
    bt = caller_line(1)
    assert(/:#{__LINE__ - 1}:in / =~ bt[1], bt[1].inspect)
    assert(/caller_line'/ =~ bt[0], bt[0].inspect)
  end

  def ret_obj(a) = [a, "s#{a}"]

  def test_returned_objects_survive_gc
    r = (1..2000).map { |i| ret_obj(i) }
    GC.start
    assert_equal [2000, "s2000"], r.last
    assert_equal 2000, r.size
  end

  class Point
    def initialize(x) = @x = x
    def x = @x
  end

  def test_initialize_and_attr_still_work
    assert_equal 4, Point.new(4).x
  end

  class Box
    attr_accessor :value
  end

  def set_value(o, v) = o.value = v
  def get_value(o) = o.value
  def get_value_arg(o, a) = o.value(a)

  def test_attr_methods_after_cached_calls
    o = Box.new
    3.times { |i| set_value(o, i) }
    3.times { assert_equal 2, get_value(o) }
    e = assert_raise(ArgumentError) { get_value_arg(o, 1) }
    assert_equal "wrong number of arguments (given 1, expected 0)", e.message
    assert_equal 2, get_value(o)
    o.freeze
    assert_raise(FrozenError) { set_value(o, 5) }
    assert_equal 2, get_value(o)
    assert_equal 7, set_value(Box.new, 7)
  end

  def push_one(a) = a.push(1)

  def test_c_methods_after_cached_calls
    a = []
    4.times { push_one(a) }
    assert_equal [1, 1, 1, 1], a
    assert_equal "X", 3.times.map { "x".upcase }.last
  end

  def self_call(a) = twice(a)
  def twice(a) = a * 2

  def test_immediate_receivers_take_the_general_path
    Integer.class_eval { def send_plain_dbl(k) = self * k }
    assert_equal 12, 3.send_plain_dbl(4)
    assert_equal 12, 6.send(:send_plain_dbl, 2)
    assert_equal 10, self_call(5)
  ensure
    Integer.class_eval { remove_method :send_plain_dbl }
  end

  def test_a_thread_switching_during_recursion
    ts = 3.times.map { |k| Thread.new { fib(15 + k) } }
    assert_equal [610, 987, 1597], ts.map(&:value)
  end
end
