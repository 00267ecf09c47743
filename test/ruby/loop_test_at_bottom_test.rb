# `while`/`until` loops, whose test mruby patch 0257 compiles after the body (entered once by a
# jump; the branch back is the test's own): how many times the body and the test run, in which
# order, with `next` (a forward jump to the test), `redo`, `break` with and without a value, nested
# loops, `begin ... end while`, constant conditions, a condition that raises or has side effects,
# `next`/`break` through ensure and rescue, retry, and a loop's value. And the thread ring's loop
# shape (`while (v = inbox.pop) >= 0` in a block, a closure's variable as the receiver): a
# redefined method, method_missing, a raise inside with its backtrace line. Expected values are
# CRuby's; this file passes on CRuby 3.1 and 3.3.8 (and on main's mnrb: it guards behaviour).

class LoopTestAtBottomTest < MnTest::Case
  def test_order_of_test_and_body
    log = []
    i = 0
    while (log << [:test, i]; i < 3)
      log << [:body, i]
      i += 1
    end
    assert_equal [[:test, 0], [:body, 0], [:test, 1], [:body, 1], [:test, 2], [:body, 2], [:test, 3]], log
    log = []
    j = 3
    until (log << j; j == 0)
      j -= 1
    end
    assert_equal [3, 2, 1, 0], log
  end

  def test_false_at_first_runs_no_body
    n = 0
    t = 0
    while (t += 1; false)
      n += 1
    end
    until (t += 1; true)
      n += 1
    end
    x = 5
    while x < 3
      n += 1
    end
    assert_equal [0, 2], [n, t]
  end

  def test_next_goes_to_the_test
    tests = 0
    seen = []
    i = 0
    while (tests += 1; i < 6)
      i += 1
      next if i.odd?
      seen << i
      next
    end
    assert_equal [[2, 4, 6], 7], [seen, tests]
    k = 0
    out = []
    until k >= 5
      k += 1
      if k == 2 then next end
      begin
        next if k == 3
      ensure
        out << [:ensure, k]
      end
      out << k
    end
    assert_equal [[:ensure, 1], 1, [:ensure, 3], [:ensure, 4], 4, [:ensure, 5], 5], out
  end

  def test_redo_reruns_the_body_not_the_test
    tests = 0
    runs = []
    i = 0
    redone = false
    while (tests += 1; i < 3)
      runs << i
      if i == 1 && !redone
        redone = true
        redo
      end
      i += 1
    end
    assert_equal [[0, 1, 1, 2], 4], [runs, tests]
  end

  def test_break_and_the_loop_value
    i = 0
    v = while true
      i += 1
      break i * 10 if i == 4
    end
    assert_equal 40, v
    assert_nil(while i > 100 do end)
    w = until i == 0
      i -= 1
      break if i == 2
    end
    assert_equal [nil, 2], [w, i]
    u = while false do end
    assert_nil u
  end

  def test_nested_loops
    pairs = []
    a = 0
    while a < 3
      b = 0
      while true
        b += 1
        next if b == 1
        break if b > 3
        pairs << [a, b]
      end
      a += 1
      next if a == 2
      pairs << a
    end
    assert_equal [[0, 2], [0, 3], 1, [1, 2], [1, 3], [2, 2], [2, 3], 3], pairs
  end

  def test_begin_end_while_runs_first
    n = 0
    begin
      n += 1
    end while false
    m = 0
    begin
      m += 1
      next if m == 2
    end until m >= 4
    k = 0
    begin
      k += 1
    end while k < 3
    assert_equal [1, 4, 3], [n, m, k]
  end

  def test_modifier_forms
    i = 0
    i += 1 while i < 7
    j = 10
    j -= 3 until j < 0
    assert_equal [7, -2], [i, j]
  end

  def test_condition_raises_on_its_line
    line = __LINE__ + 4
    e = assert_raise(NoMethodError) do
      x = [1, 2, nil]
      i = 0
      while x[i] > 0
        i += 1
      end
    end
    assert e.message.include?("undefined method"), e.message
    assert e.backtrace[0].include?(":#{line}:"), e.backtrace[0]
  end

  def test_retry_and_rescue_in_a_loop
    tries = 0
    got = []
    i = 0
    while i < 3
      begin
        tries += 1
        raise "x" if tries == 2
        got << i
      rescue
        retry
      end
      i += 1
    end
    assert_equal [[0, 1, 2], 4], [got, tries]
  end

  def test_values_other_than_booleans
    list = [1, 2, 3]
    out = []
    while (x = list.shift)
      out << x
    end
    s = "ab"
    until s.nil?
      out << s
      s = s.size > 2 ? nil : s * 2
    end
    assert_equal [1, 2, 3, "ab", "abab"], out
  end

  class Box
    def initialize(items) = @items = items
    def pop = @items.shift
    def <<(v) = (@items << v; self)
  end

  def test_closure_receiver_sends
    inbox = Box.new([3, 2, 1, 0, -1])
    outbox = []
    got = []
    blk = proc do
      while (v = inbox.pop) >= 0
        if v == 0 then got << :zero else outbox << v - 1 end
      end
    end
    blk.call
    assert_equal [[2, 1, 0], [:zero]], [outbox, got]
    inbox = Box.new([5])
    def inbox.pop = 42   # redefined on this object: the closure's send finds it
    r = proc { inbox.pop }.call
    assert_equal 42, r
  end

  class Ghost
    def method_missing(name, *args) = [:missing, name, args]
    def respond_to_missing?(*) = true
  end

  def test_closure_receiver_missing_and_raise
    g = Ghost.new
    assert_equal [:missing, :pop, []], proc { g.pop }.call
    q = Object.new
    def q.pop = raise(ArgumentError, "inside")
    line = __LINE__ + 1
    e = assert_raise(ArgumentError) { proc { q.pop }.call }
    assert_equal "inside", e.message
    assert e.backtrace[1].include?(":#{line}:"), e.backtrace.inspect
    n = nil
    assert_raise(NoMethodError) { proc { n.pop }.call }
    th = Thread::Queue.new
    th << 7
    assert_equal 7, proc { th.pop }.call
  end
end
