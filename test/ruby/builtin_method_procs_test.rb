# Built-in Ruby methods (mruby's mrblib and the gems', compiled into the binary) get their procs at
# their first lookup, not when a state boots (mruby patch 0013): every Ractor is a state, and those
# procs were half of a fresh one's heap. These tests run in fresh ractors, where nothing has looked
# the methods up yet, and check that a method made late behaves as one made at boot: super,
# constants found through the class body it was defined in, prepends, aliases, the GC.

module LoudInterrupt
  def initialize(message = "Interrupt")
    super(message.upcase)
  end
end

class BuiltinMethodProcsTest < MnTest::Case
  def test_a_builtin_method_gets_its_proc_at_its_first_lookup_and_keeps_it
    deltas = Ractor.new do
      GC.disable
      before = ObjectSpace.count_objects[:T_PROC]
      Comparable.instance_method(:between?)
      first = ObjectSpace.count_objects[:T_PROC]
      Comparable.instance_method(:between?)
      second = ObjectSpace.count_objects[:T_PROC]
      GC.enable
      [first - before, second - first, 3.between?(1, 5), 7.between?(1, 5)]
    end.take
    assert_equal [1, 0, true, false], deltas
  end

  def test_super_from_a_method_made_at_its_first_call
    # Interrupt#initialize (mnrb-process's Ruby code) calls super(2, message)
    got = Ractor.new { e = Interrupt.new; [e.message, e.signo, Interrupt.new("stop").message] }.take
    assert_equal ["Interrupt", 2, "stop"], got
  end

  def test_a_prepend_before_the_first_call
    got = Ractor.new do
      Interrupt.prepend(LoudInterrupt)
      e = Interrupt.new("stop")
      [e.message, e.signo, Interrupt.ancestors.take(2)]
    end.take
    assert_equal ["STOP", 2, [LoudInterrupt, Interrupt]], got
  end

  def test_constants_are_found_through_the_class_body_the_method_was_defined_in
    got = Ractor.new do
      # Signal.signame reads LIST, MNRB::Loader's singleton method LOADER_METHODS: both lexically
      [Signal.signame(15), Signal.list["INT"],
       MNRB::Loader.backtrace_from_require(["a.rb:1:in require", "b.rb:2:in foo", "c.rb:3:in bar"])]
    end.take
    assert_equal ["TERM", 2, ["a.rb:1:in require", "b.rb:2:in foo", "c.rb:3:in bar"]], got
  end

  def test_an_alias_of_a_method_not_called_yet
    got = Ractor.new do
      Comparable.send(:alias_method, :within?, :between?)
      [5.within?(1, 9), 5.between?(6, 9), Comparable.instance_method(:within?).name]
    end.take
    assert_equal [true, false, :within?], got
  end

  def test_a_subclass_copy_of_a_builtin_class_and_its_methods
    got = Ractor.new do
      copy = Comparable.dup
      klass = Class.new do
        include copy
        attr_reader :v
        def initialize(v)
          @v = v
        end

        def <=>(other)
          v <=> other.v
        end
      end
      [klass.new(2).between?(klass.new(1), klass.new(3)), klass.new(5).clamp(klass.new(1), klass.new(3)).v]
    end.take
    assert_equal [true, 3], got
  end

  # GC steps as often as mruby allows: a method made during a collection must be marked through its
  # class (a missed write barrier shows as a freed proc being called; ASan reports it)
  def test_builtin_methods_made_while_the_gc_runs_often
    got = Ractor.new do
      GC.interval_ratio = 10
      GC.step_ratio = 1000
      junk = []
      r = 200.times.map do |i|
        junk << "x" * 64 << [i] << { i => i }
        junk.clear if junk.size > 300
        [i.between?(0, 100), [i, 1].minmax, (1..3).each_slice(2).to_a.size, "a b".split.each_with_index.to_a]
      end
      GC.start
      [r.size, r.count { |x| x[0] }, r.last]
    end.take
    assert_equal [200, 101, [false, [1, 199], 2, [["a", 0], ["b", 1]]]], got
  end

  def test_every_builtin_method_made_at_once_under_collections
    count = Ractor.new do
      n = 0
      Object.constants.each do |c|
        mod = Object.const_get(c)
        next unless mod.is_a?(Module)
        GC.start if n % 50 == 0
        n += mod.instance_methods(false).size + mod.singleton_methods.size
      end
      GC.start
      [n, [3, 1, 2].sort.each_slice(2).to_a, { a: 1 }.map { |k, v| [k, v] }, "a-b".split("-").join("+")]
    end.take
    assert count[0] > 1000, "only #{count[0]} methods"
    assert_equal [[[1, 2], [3]], [[:a, 1]], "a+b"], count[1, 3]
  end
end
