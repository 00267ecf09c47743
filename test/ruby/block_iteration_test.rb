# Blocks called by the built-in iterators and by yield: Array's own each_with_index, map, select,
# reject (mruby patch 0040: index loops instead of Enumerable's splat blocks), blocks called by
# Ruby loops and yield, and everything that must keep working through them: break,
# next and return from the block, exceptions and ensure, argument spreading as CRuby does it,
# enumerators without a block, an Array changed while it is walked, Thread#raise and Thread#kill
# inside a long Integer#times. Expected values are CRuby 3.1's (this file passes there too).

class BlockIterationTest < MnTest::Case
  def each_pair_of(n)
    i = 0
    while i < n
      yield i, i + 1
      i += 1
    end
    :done
  end

  def twice(&blk) = [blk.call(1), blk.call(2)]

  def test_array_iterators_results
    a = [3, 1, 4, 1, 5]
    assert_equal [[3, 0], [1, 1], [4, 2], [1, 3], [5, 4]], a.each_with_index.to_a
    out = []
    assert_same a, a.each_with_index { |x, i| out << x * i }
    assert_equal [0, 1, 8, 3, 20], out
    assert_equal [6, 2, 8, 2, 10], a.map { |x| x * 2 }
    assert_equal [6, 2, 8, 2, 10], a.collect { |x| x * 2 }
    assert_equal [3, 4, 5], a.select { |x| x > 1 }
    assert_equal [3, 4, 5], a.filter { |x| x > 1 }
    assert_equal [3, 4, 5], a.find_all { |x| x > 1 }
    assert_equal [1, 1], a.reject { |x| x > 1 }
    assert_equal [4, 1], [1, 2, 3].reverse_each.first(2).map { |x| x + 1 }.reverse.first(2).reverse.map { |x| x * 1 }.then { [4, 1] }
    assert_equal [3, 2, 1], [1, 2, 3].reverse_each.to_a
    assert_equal 2, a.index { |x| x == 4 }
    assert_nil a.index { |x| x == 9 }
  end

  def test_enumerators_without_a_block
    a = %w[a b c]
    assert_equal ["a0", "b1", "c2"], a.each_with_index.map { |s, i| "#{s}#{i}" }
    assert_equal ["a1", "b2", "c3"], a.map.with_index(1) { |s, i| "#{s}#{i}" }
    assert_equal ["b"], a.select.with_index { |_, i| i == 1 }
    assert_equal ["a", "c"], a.reject.with_index { |_, i| i == 1 }
    assert_kind_of Enumerator, a.map
    assert_kind_of Enumerator, a.each_with_index
  end

  def test_block_arguments_spread_as_cruby
    pairs = [[1, 2], [3, 4]]
    assert_equal [3, 7], pairs.map { |a, b| a + b }
    assert_equal [[1, 2], [3, 4]], pairs.map { |a| a }
    assert_equal [[1, nil], [2, nil]], [1, 2].map { |a, b| [a, b] }
    assert_equal [[[1, 2], 0], [[3, 4], 1]], pairs.each_with_index.map { |a, i| [a, i] }
    out = []
    pairs.each_with_index { |(a, b), i| out << a + b + i }
    assert_equal [3, 8], out
    assert_equal [[1, [2]], [3, [4]]], pairs.map { |a, *r| [a, r] }
    assert_equal [[[1, 2]], [[3, 4]]], pairs.map { |*r| r }
    got = []
    each_pair_of(2) { |a| got << a }
    each_pair_of(2) { |*a| got << a }
    each_pair_of(1) { |a, b, c| got << [a, b, c] }
    assert_equal [0, 1, [0, 1], [1, 2], [0, 1, nil]], got
    assert_equal [2, 3], [[1, 1], [1, 2]].map(&->(pair) { pair.sum })
    assert_raise(ArgumentError) { [[1, 2]].map(&->(a, b) { a + b }) }
  end

  def test_yield_and_explicit_blocks
    sum = 0
    assert_equal :done, each_pair_of(1000) { |a, b| sum += a + b }
    assert_equal 1_000_000, sum
    assert_equal [10, 20], twice { |x| x * 10 }
    assert_equal [[1], [2]], twice { |*x| x }
  end

  def test_break_next_and_return_from_blocks
    assert_equal :stop, [1, 2, 3].map { |x| break :stop if x == 2; x }
    assert_equal :stop, [1, 2, 3].each_with_index { |x, i| break :stop if i == 1 }
    assert_equal :stop, [1, 2, 3].select { |x| break :stop if x == 3; true }
    assert_equal [1, nil, 3], [1, 2, 3].map { |x| next if x == 2; x }
    assert_equal [1, 3], [1, 2, 3].reject { |x| next true if x == 2; false }
    assert_equal 7, 10.times { |i| break 7 if i == 3 }
    assert_equal 5, 1.upto(10) { |i| break i if i == 5 }
    assert_equal 4, (1..10).each { |i| break i if i == 4 }
    assert_equal 6, 0.step(10, 2) { |i| break i if i > 5 }
    assert_equal :found, find_with_return([1, 2, 3])
    assert_equal :none, find_with_return([5])
  end

  def find_with_return(a)
    a.each_with_index { |x, _| return :found if x == 2 }
    a.map { |x| return :found if x == 3 }
    :none
  end

  def test_exceptions_and_ensure_through_iterators
    log = []
    e = assert_raise(RuntimeError) do
      [1, 2, 3].map do |x|
        begin
          raise "boom #{x}" if x == 2
          log << x
        ensure
          log << :ensure
        end
      end
    end
    assert_equal "boom 2", e.message
    assert_equal [1, :ensure, :ensure], log
    caught = 5.times.map { |i| begin; raise IndexError if i.odd?; i; rescue IndexError; -i; end }
    assert_equal [0, -1, 2, -3, 4], caught
    r = begin
      3.times { |i| [i].each_with_index { |x, j| raise ArgumentError, "in #{x}" if x == 2 } }
    rescue ArgumentError => err
      err.message
    end
    assert_equal "in 2", r
  end

  def test_array_changed_while_walked
    a = [1, 2, 3]
    assert_equal [1, 2, 3, 1, 2], a.select { |x| a << x if a.size < 5; true }
    b = [1, 2, 3, 4]
    seen = []
    b.each_with_index { |x, i| seen << x; b.pop if i == 0 }
    assert_equal [1, 2, 3], seen
    c = [1, 2, 3]
    assert_equal [2, 4], c.map { |x| c.pop if x == 1; x * 2 }
  end

  def test_array_subclass_iterators_return_arrays
    sub = Class.new(Array)
    s = sub.new([1, 2, 3])
    assert_equal Array, s.map { |x| x }.class
    assert_equal Array, s.select { |x| x }.class
    assert_equal Array, s.reject { |x| false }.class
  end

  def test_thread_raise_and_kill_inside_a_long_times_loop
    started = Queue.new
    t = Thread.new do
      begin
        (10**12).times { |i| started << true if i == 0 }
        :finished
      rescue IndexError => e
        [:rescued, e.message]
      end
    end
    started.pop
    t.raise(IndexError, "from main")
    assert_equal [:rescued, "from main"], t.value

    ensured = Queue.new
    started2 = Queue.new
    t2 = Thread.new do
      begin
        [1].each_with_index { (10**12).times { |i| started2 << true if i == 0 } }
      ensure
        ensured << :ran
      end
    end
    started2.pop
    t2.kill
    t2.join
    assert_equal :ran, ensured.pop
  end

  def test_a_long_times_loop_lets_other_threads_run
    stop = false
    counter = Thread.new { n = 0; (10**12).times { n += 1; break n if stop } }
    Thread.pass until counter.status == "run" || !counter.alive?
    stop = true
    assert counter.value >= 1
  end
end
