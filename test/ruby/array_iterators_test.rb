# Array's block iterators (mruby patch 0050: each, each_index, each_with_index, map/collect, map!/
# collect!, select/filter/find_all, reject, reverse_each, index/find_index call the block with
# `yield` and read the length only when the element read is nil or false). What must hold, as in
# CRuby's C loops (`i < RARRAY_LEN(ary)` after every block call): nil and false elements are
# visited, elements appended by the block are visited, an Array shrunk by the block ends the walk
# (reverse_each goes on from the new last element), a redefined Proc#call is not called, and
# external enumeration (Enumerator#next, a Fiber) still works through them. Expected values are
# CRuby 3.1's (this file passes there too).

class ArrayIteratorsTest < MnTest::Case
  MIXED = [1, nil, false, 2, nil].freeze

  def collect_each(ary, meth, *args)
    out = []
    ary.public_send(meth, *args) { |*x| out << (x.size == 1 ? x[0] : x); yield(*x) if block_given? }
    out
  end

  def test_nil_and_false_elements_are_visited
    assert_equal MIXED, collect_each(MIXED, :each)
    assert_equal MIXED.reverse, collect_each(MIXED, :reverse_each)
    assert_equal MIXED.each_with_index.to_a, collect_each(MIXED, :each_with_index)
    assert_equal ["1", "nil", "false", "2", "nil"], MIXED.map(&:inspect)
    assert_equal [nil, false, nil], MIXED.select { |x| !x }
    assert_equal [1, 2], MIXED.reject { |x| !x }
    assert_equal 2, MIXED.index(false)
    assert_equal 2, MIXED.index { |x| x == false }
    assert_equal 4, MIXED.each_index.to_a.last
    assert_equal [1, true, true, 2, true], MIXED.dup.map! { |x| x.nil? || x == false ? true : x }
  end

  def test_return_values
    a = [1, 2]
    assert_same a, a.each { }
    assert_same a, a.each_index { }
    assert_same a, a.each_with_index { }
    assert_same a, a.reverse_each { }
    assert_same a, a.map! { |x| x }
    assert_equal [], [].map { |x| x }
    assert_nil [].index { true }
    assert_nil [1].index { false }
    assert_same [].each { }.class, Array
  end

  def test_appended_elements_are_visited
    a = [1, 2]
    seen = collect_each(a, :each) { |x| a << x + 10 if x < 10 }
    assert_equal [1, 2, 11, 12], seen
    b = [1]
    assert_equal [[1, 0], [nil, 1], [false, 2]], collect_each(b, :each_with_index) { |x, i| b.push(nil, false) if i == 0 }
    c = [1]
    assert_equal [2, nil], c.map { |x| c << nil if x; x && x * 2 }
    d = [1]
    assert_equal [1, nil], d.select { |x| d << nil if x; true }
    e = [1]
    assert_equal 1, e.index { |x| e << :hit if x == 1; x == :hit }
    f = [1]
    assert_equal [2, 20], f.map! { |x| f << 10 if x == 1; x * 2 }
  end

  def test_a_shrunk_array_ends_the_walk
    a = [1, 2, 3, 4]
    assert_equal [1, 2], collect_each([1, 2, 3, 4].tap { |x| a = x }, :each) { 2.times { a.pop } if a.size == 4 }
    b = [1, 2, 3]
    assert_equal [2], b.map { |x| b.clear if x == 1; 2 }
    c = [1, 2, 3]
    assert_equal [nil], c.select { |x| c.clear if x == 1; true }
    d = [1, 2, 3]
    assert_equal [], d.reject { |x| d.clear; true }
    e = [1, 2, 3]
    assert_nil e.index { |x| e.clear; false }
    f = [1, 2, 3, 4]
    assert_equal [10, 20], f.map! { |x| 2.times { f.pop } if x == 1; x * 10 }
    g = [1, 2, 3]
    assert_equal [[1, 0]], collect_each(g, :each_with_index) { g.clear }
  end

  def test_select_keeps_the_element_at_the_index_after_the_block
    a = [1, 2, 3]
    assert_equal [1, :two, 3], a.select { |x| a[1] = :two if x == 2; true }
  end

  def test_reject_keeps_the_element_it_gave_the_block
    a = [1, 2, 3]
    assert_equal [1, 2, 3], a.reject { |x| a[1] = :two if x == 2; false }
  end

  def test_reverse_each_with_a_shrinking_array
    a = [1, 2, 3, 4, 5]
    assert_equal [5, 4, 4, 2, 1], collect_each(a, :reverse_each) { |x| a.delete(3) if x == 4 }
    b = [1, 2, 3, 4, 5]
    assert_equal [5, 2, 1], collect_each(b, :reverse_each) { |x| 3.times { b.pop } if x == 5 }
    c = [1, 2, 3]
    assert_equal [3], collect_each(c, :reverse_each) { c.clear }
    d = [1, 2, 3, 4]
    assert_equal [4, 3, 2, 1], collect_each(d, :reverse_each) { |x| d.delete(x) }
    assert_equal [], d
    e = [1, nil, 2]
    assert_equal [2, nil, 1], collect_each(e, :reverse_each)
  end

  def test_reverse_each_does_not_visit_appended_elements
    a = [1, 2]
    assert_equal [2, 1], collect_each(a, :reverse_each) { |x| a << x }
    assert_equal [1, 2, 2, 1], a
  end

  def test_index_with_an_argument_or_a_block
    a = [3, 1, 2, 1]
    assert_equal 1, a.index(1)
    assert_nil a.index(9)
    assert_nil a.index(nil)
    assert_equal 2, a.index { |x| x == 2 }
    assert_equal 1, a.find_index(1)
    assert_equal 2, a.find_index { |x| x == 2 }
    assert_equal 2, a.index.each { |x| x == 2 }
    assert_equal 0, a.find_index.each { |x| x == 3 }
  end

  def test_index_argument_wins_over_a_block
    a = [3, 1, 2, 1]
    verbose, $VERBOSE = $VERBOSE, nil    # CRuby warns "given block not used"
    assert_equal [1, 1], [a.index(1) { |x| x == 2 }, a.find_index(1) { |x| x == 2 }]
  ensure
    $VERBOSE = verbose
  end

  def test_index_uses_the_elements_equality
    eq = Object.new
    def eq.==(o) = o == :x
    assert_equal 1, [1, eq].index(:x)
    assert_nil [1, eq].index(:y)
  end

  def test_map_bang_on_a_frozen_array_calls_no_block
    called = false
    assert_raise(FrozenError) { [1, 2].freeze.map! { |x| called = true; x } }
    refute called
    assert_kind_of Enumerator, [1].freeze.map!
  end

  def test_break_next_and_return
    assert_equal :b, [1, 2, 3].each { |x| break :b if x == 2 }
    assert_equal :b, [1, nil, 3].reverse_each { |x| break :b if x.nil? }
    assert_equal :b, [1, 2].each_index { |i| break :b if i == 1 }
    assert_equal [1, nil, 3], [1, 2, 3].each_with_index.map { |x, i| next if i == 1; x }
    assert_equal 2, returns_from_reverse_each([1, 2, 3])
    assert_equal :b, [1, 2].map! { |x| break :b }
  end

  def returns_from_reverse_each(a)
    a.reverse_each { |x| return x if x.even? }
    :none
  end

  def test_enumerators_and_external_iteration
    a = [1, nil, 3]
    e = a.each
    assert_equal [1, nil, 3], [e.next, e.next, e.next]
    assert_raise(StopIteration) { e.next }
    r = a.reverse_each
    assert_equal [3, nil], [r.next, r.next]
    w = a.each_with_index
    assert_equal [[1, 0], [nil, 1]], [w.next, w.next]
    assert_equal [[3, 2], [nil, 1], [1, 0]], a.reverse_each.with_index.map { |x, i| [x, 2 - i] }
    assert_equal [1, 3], a.select.with_index { |x, _| x }
    assert_equal [0, 1, 2], a.each_index.to_a
    f = Fiber.new { a.each_with_index { |x, i| Fiber.yield [x, i] }; :end }
    assert_equal [1, 0], f.resume
    assert_equal [nil, 1], f.resume
  end

  def test_yield_does_not_call_a_redefined_proc_call
    Proc.class_eval do
      alias_method :__array_iterators_orig_call, :call
      define_method(:call) { |*a| :redefined }
    end
    begin
      a = [1, 2]
      got = [a.map { |x| x * 2 }, a.select { |x| x > 1 }, a.reject { |x| x > 1 }, a.index { |x| x == 2 },
             collect_each(a, :each), collect_each(a, :reverse_each), collect_each(a, :each_with_index),
             collect_each(a, :each_index), a.dup.map! { |x| -x }]
    ensure
      Proc.class_eval do
        alias_method :call, :__array_iterators_orig_call
        remove_method :__array_iterators_orig_call
      end
    end
    assert_equal [[2, 4], [2], [1], 1, [1, 2], [2, 1], [[1, 0], [2, 1]], [0, 1], [-1, -2]], got
  end

  def test_block_arguments
    assert_equal [[1, 2], [3, 4]], [[1, 2], [3, 4]].reverse_each.to_a.reverse
    assert_equal [3, 7], [[1, 2], [3, 4]].select { |a, b| a + b > 0 }.map { |a, b| a + b }
    assert_equal 1, [[1, 2], [3, 4]].index { |a, b| b == 4 }
    assert_equal [[0, 1, 2]], [[1, 2]].each_with_index.map { |(a, b), i| [i, a, b] }
  end
end
