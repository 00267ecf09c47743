# Array#each, #each_index, #each_with_index, #map/#collect, #map!, #select/#filter, #reject
# (mruby patch 0052): they `yield` instead of calling `block.call`, and read #length only when an
# element reads as nil or false. Each test checks what that could get wrong: nil and false
# elements, an Array that grows or shrinks under the loop, break/next/return values, lambdas and
# C procs as blocks, a redefined Proc#call (CRuby's C iterators never call it), enumerators,
# subclasses, preemption of a thread looping in #each. Expected values are CRuby 3.1's (this file
# passes there too).

class ArrayIteratorsYieldTest < MnTest::Case
  def test_nil_and_false_elements_are_yielded
    a = [nil, 1, false, nil, 2, false]
    got = []
    assert_same a, a.each { |v| got << v }
    assert_equal a, got
    got = []
    a.each_with_index { |v, i| got << [v, i] }
    assert_equal [[nil, 0], [1, 1], [false, 2], [nil, 3], [2, 4], [false, 5]], got
    assert_equal [true, false, true, true, false, true], a.map { |v| !v }
    assert_equal [1, 2], a.select { |v| v }
    assert_equal [nil, false, nil, false], a.reject { |v| v }
    assert_equal [1, 2], a.filter { |v| v }
    assert_equal [], [nil].select { |v| v }
    assert_equal [], [].map { |v| v }
    got = []
    [].each { |v| got << v }
    [nil].each { |v| got << v }
    [false, nil].each_with_index { |v, i| got << i }
    assert_equal [nil, 0, 1], got
  end

  def test_array_changed_under_the_loop
    a = [1, 2, 3]
    got = []
    a.each { |v| got << v; a << v + 10 if a.size < 6 }
    assert_equal [1, 2, 3, 11, 12, 13], got
    a = [1, 2, 3, 4, 5]
    got = []
    a.each { |v| got << v; a.pop }
    assert_equal [1, 2, 3], got
    a = [1, nil, 3]
    got = []
    a.each_with_index { |v, i| got << [v, i]; a.clear if i == 0 }
    assert_equal [[1, 0]], got
    a = [nil, nil]
    got = a.map { |v| a.push(nil) if a.size < 4; v }
    assert_equal [nil, nil, nil, nil], got
    a = [1, 2, 3]
    got = a.select { |v| a[2] = nil; true }
    assert_equal [1, 2, nil], got
  end

  def test_break_next_and_return
    assert_equal :stop, [1, 2, 3].each { |v| break :stop if v == 2 }
    assert_equal [1, nil, 3], [1, 2, 3].map { |v| next if v == 2; v }
    assert_equal 2, [1, 2, 3].each_with_index { |v, i| break i if v == 3 }
    assert_equal 4, find_first_over([1, 4, 9], 3)
    assert_nil find_first_over([1, 2], 3)
    r = [1, 2, 3].reject { |v| next true if v == 1; false }
    assert_equal [2, 3], r
  end

  def find_first_over(a, n)
    a.each_with_index { |v, _| return v if v > n }
    nil
  end

  def test_lambdas_and_c_procs_as_blocks
    assert_equal %w[1 2], [1, 2].map(&:to_s)
    assert_equal [1, 3], [1, 2, 3].select(&:odd?)
    assert_equal [2], [1, 2, 3].reject(&:odd?)
    got = []
    [1, 2].each_with_index(&->(v, i) { got << v * 10 + i })
    assert_equal [10, 21], got
    assert_equal [2, 4], [1, 2].map(&->(v) { v * 2 })
    assert_raise(ArgumentError) { [1].each(&->(a, b) { a }) }
    m = 5.method(:+)
    assert_equal [6, 7], [1, 2].map(&m)
    pairs = []
    [[1, 2], [3, 4]].each { |a, b| pairs << a + b }
    assert_equal [3, 7], pairs
    assert_equal [[1, [2, 3]]], [[1, [2, 3]]].map { |a, (b, c)| [a, [b, c]] }
  end

  def test_each_index_and_map_bang
    got = []
    assert_equal [5, 6], [5, 6].each_index { |i| got << i }
    assert_equal [0, 1], got
    a = [1, nil, 3]
    assert_same a, a.map! { |v| v.to_s }
    assert_equal ["1", "", "3"], a
    b = [1, 2]
    b.collect! { |v| v * 3 }
    assert_equal [3, 6], b
  end

  def test_without_a_block_enumerators
    assert_equal [[:a, 0], [:b, 1]], [:a, :b].each_with_index.to_a
    assert_equal [2, 4], [1, 2].map.with_index { |v, i| v * 2 + i * 0 }
    assert_equal [1, 2], [1, 2].each.to_a
    assert_equal [2], [1, 2].select.with_index { |v, i| i == 1 }
    assert_equal [1], [1, 2].reject.with_index { |v, i| i == 1 }
  end

  class MyArray < Array; end

  def test_subclass
    a = MyArray.new([1, nil, 2])
    got = []
    a.each_with_index { |v, i| got << [v, i] }
    assert_equal [[1, 0], [nil, 1], [2, 2]], got
    assert_equal [1, 2], a.select { |v| v }
  end

  def test_redefined_proc_call_is_not_called
    Proc.class_eval do
      alias_method :__nq22_orig_call, :call
      define_method(:call) { |*a| :redefined }
    end
    begin
      acc = []
      [1, 2].each { |v| acc << v }
      [3].each_with_index { |v, i| acc << [v, i] }
      acc << [4].map { |v| v + 1 }
      acc << [5, 6].select { |v| v == 6 }
      acc << [7, 8].reject { |v| v == 7 }
      [9].each_index { |i| acc << i }
    ensure
      Proc.class_eval do
        alias_method :call, :__nq22_orig_call
        remove_method :__nq22_orig_call
      end
    end
    assert_equal [1, 2, [3, 0], [5], [6], [8], 0], acc
  end

  def test_under_gc
    strs = []
    (0...3000).to_a.each_with_index { |v, i| s = "#{v}-#{i}"; GC.start if i % 1000 == 0; strs << s }
    assert_equal "2999-2999", strs.last
    kept = (0...3).to_a.map { |i| [i.to_s * 3] }
    GC.start
    assert_equal [["000"], ["111"], ["222"]], kept
  end

  def test_a_thread_looping_in_each_is_preempted
    flag = false
    a = Array.new(1000, 1)
    t = Thread.new do
      n = 0
      loop { a.each { |v| n += v; break if flag }; break if flag }
      n
    end
    Thread.pass until t.status == "run" || t.status == "sleep" || t.status == false
    flag = true
    assert_kind_of Integer, t.value
  end
end
