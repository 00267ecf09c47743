# Built-in classes' method tables are shared read-only between ractors (mruby patch 0077): each
# mnrb ractor is a state of its own, and the tables whose methods are all C functions or built-in
# Ruby methods not made yet (Math and its singleton class, Regexp, MatchData, Thread::Queue,
# Random::Formatter, UnboundMethod, Integer, Comparable...) are one process-wide copy that a state
# copies at its first write, a built-in Ruby method made at its first call included. These tests fail if a write to such a
# class in one ractor (def, alias, undef, remove_method, define_method, through a module that a
# class includes) reaches main or another ractor, or if what main defined before Ractor.new is
# not in the ractor (Ractor.new copies the definitions its creator added). Float and NilClass
# (tables with Ruby methods, per state) are checked beside them.
# mnrb-only where the behaviour is mnrb's: CRuby's ractors share one set of classes, so a method
# defined in a ractor is every ractor's; the main-ractor case holds in CRuby too.

class RactorBuiltinTablesTest < MnTest::Case
  def test_def_in_a_ractor_stays_in_it
    mnrb_only
    inside = Ractor.new do
      Regexp.class_eval { def w20_src; source * 2; end }
      MatchData.class_eval { def w20_first; self[0]; end }
      Float.class_eval { def w20_half; self / 2; end }
      NilClass.class_eval { def w20_nil; :mine; end }
      [/ab/.w20_src, /b+/.match("abbc").w20_first, 4.0.w20_half, nil.w20_nil]
    end.take
    assert_equal ["abab", "bb", 2.0, :mine], inside
    refute(/ab/.respond_to?(:w20_src), "a ractor's def reached main's Regexp")
    refute(/b/.match("b").respond_to?(:w20_first), "a ractor's def reached main's MatchData")
    refute 1.0.respond_to?(:w20_half), "a ractor's def reached main's Float"
    refute nil.respond_to?(:w20_nil), "a ractor's def reached main's NilClass"
    later = Ractor.new { [/a/.respond_to?(:w20_src), 1.0.respond_to?(:w20_half), nil.respond_to?(:w20_nil)] }.take
    assert_equal [false, false, false], later, "a ractor's def reached a later ractor"
  end

  def test_a_live_sibling_does_not_see_a_def
    mnrb_only
    a = Ractor.new do
      Ractor.receive
      Thread::Queue.class_eval { def w20_q; :q; end }
      Thread::Queue.new.w20_q
    end
    b = Ractor.new do
      Ractor.receive
      Thread::Queue.new.respond_to?(:w20_q)
    end
    a << :go
    assert_equal :q, a.take              # a defined it before b looks
    b << :go
    assert_equal false, b.take
    refute Thread::Queue.new.respond_to?(:w20_q)
  end

  def test_alias_undef_and_remove_in_a_ractor_stay_in_it
    mnrb_only
    got = Ractor.new do
      Math.singleton_class.class_eval { alias_method :w20_root, :sqrt }
      Math.singleton_class.class_eval { remove_method :cbrt }
      Regexp.class_eval { undef_method :source }
      Float.class_eval { undef_method :ceil }
      [Math.w20_root(9), Math.respond_to?(:cbrt), /x/.respond_to?(:source), 2.5.respond_to?(:ceil)]
    end.take
    assert_equal [3.0, false, false, false], got
    assert_equal 2.0, Math.cbrt(8)
    assert_equal "x", /x/.source
    assert_equal 3, 2.5.ceil
    refute Math.respond_to?(:w20_root)
    later = Ractor.new { [Math.cbrt(8), /y/.source, 2.5.ceil, Math.respond_to?(:w20_root)] }.take
    assert_equal [2.0, "y", 3, false], later
  end

  def test_define_method_and_a_redefined_c_method_in_a_ractor_stay_in_it
    mnrb_only
    got = Ractor.new do
      UnboundMethod.define_method(:w20_dm) { 42 }
      Math.singleton_class.class_eval { def sqrt(x); :redefined; end }
      [Integer.instance_method(:to_s).w20_dm, Math.sqrt(4)]
    end.take
    assert_equal [42, :redefined], got
    refute Integer.instance_method(:to_s).respond_to?(:w20_dm)
    assert_equal 2.0, Math.sqrt(4)
    assert_equal 3.0, Ractor.new { Math.sqrt(9) }.take
  end

  # A module that classes include shares its table object with their include entries: the copy
  # made at the first write must be what every includer sees in that ractor, and in it only.
  def test_a_def_in_an_included_module_reaches_its_includers_in_that_ractor_only
    mnrb_only
    got = Ractor.new do
      c = Class.new { include Math }   # Math's table, shared, is included before the write
      Math.module_eval { def w20_m; :m; end }
      Random::Formatter.module_eval { def w20_f; :f; end }
      Kernel.module_eval { def w20_kernel; :k; end }
      [c.new.w20_m, Random.new.w20_f, Object.new.w20_kernel, 1.w20_kernel]
    end.take
    assert_equal [:m, :f, :k, :k], got
    refute Class.new { include Math }.new.respond_to?(:w20_m)
    refute Random.new.respond_to?(:w20_f)
    refute Object.new.respond_to?(:w20_kernel)
    assert_equal [false, false], Ractor.new { [Random.new.respond_to?(:w20_f), 1.respond_to?(:w20_kernel)] }.take
  end

  # What main adds to or changes in built-in classes before Ractor.new is in the new ractor. In a
  # program of its own: main's redefinitions must not reach this process's other tests.
  def test_mains_redefinitions_before_ractor_new_are_seen_in_the_ractor
    out = IO.popen([RbConfig.ruby, "-e", <<~RUBY], err: [:child, :out], &:read)
      class Regexp; def w20_main; :from_main; end; end
      class NilClass; def inspect; "NIL!"; end; end
      module Kernel; def w20_k; :kk; end; end
      Math.singleton_class.class_eval { def w20_root(x); sqrt(x); end }
      class Thread::Queue; def size; -1; end; end
      p Ractor.new { [/a/.w20_main, nil.inspect, Object.new.w20_k, Math.w20_root(4), Thread::Queue.new.size] }.take
    RUBY
    assert_equal "[:from_main, \"NIL!\", :kk, 2.0, -1]", out.lines.grep(/\A\[/).first.to_s.chomp, out
  end

  # Ractors writing to the same shared tables at once (2 native threads in the suite's TSan run):
  # each sees its own writes only.
  def test_concurrent_writes_stay_in_each_ractor
    mnrb_only
    rs = 6.times.map do |i|
      Ractor.new(i) do |n|
        Regexp.class_eval { define_method(:w20_n) { n } }
        MatchData.class_eval { undef_method :pre_match } if n.even?
        20.times { |j| Math.singleton_class.class_eval { alias_method :"w20_#{n}_#{j}", :sqrt } }
        [/a/.w20_n, /a/.match("ba").respond_to?(:pre_match), Math.respond_to?(:"w20_#{(n + 1) % 6}_0"),
         n != 0 || Math.w20_0_0(16) == 4.0]
      end
    end
    rs.each_with_index do |r, i|
      assert_equal [i, i.odd?, false, true], r.take
    end
    refute(/a/.respond_to?(:w20_n))
    assert_equal "b", /a/.match("ba").pre_match
    refute Math.respond_to?(:w20_0_0)
  end

  # The design's first step (docs/PERFORMANCE.md, "what sharing the built-in classes needs"): the
  # symbols interned while booting get the same IDs in every state, so that tables and code can
  # be shared by ID. Symbol.all_symbols lists a state's symbols in ID order. Two ractors made
  # from the same block hold the same symbols with the same IDs; main (a program of its own: this
  # test process interned its library's names) differs only after its boot (the command line's
  # names, its script's), by a few.
  def test_boot_symbols_have_the_same_ids_in_every_state
    mnrb_only
    out = IO.popen([RbConfig.ruby, "-e", <<~RUBY], err: [:child, :out], &:read)
      mine = Symbol.all_symbols
      a, b = 2.times.map { Ractor.new { Symbol.all_symbols } }.map(&:take)
      same = (0...[a.size, mine.size].min).take_while { |i| a[i] == mine[i] }.size
      p [a == b, a.size, same]
    RUBY
    twins, size, same_prefix = eval(out.lines.grep(/\A\[/).first.to_s)
    assert twins, out
    assert size > 1000, "a ractor holds #{size.inspect} symbols"
    assert same_prefix >= size - 20, "main and a ractor differ from symbol #{same_prefix} of #{size}"
  end

  # Built-in Ruby methods (lazy: made at their first call, patches 0013, 0072) live in shared
  # tables until then: the state that calls one first stores the method into its own copy. The
  # first ractor is gone when the next ones call the same methods: had its methods gone into the
  # shared table, they would run a freed state's procs (a crash, or an ASan report).
  CALLS = proc do
    [1.upto(3).to_a, 3.downto(1).to_a, 2.times.to_a, 1.step(7, 3).to_a, 5.clamp(1, 3),
     2.5.clamp(1, 2), 4.between?(1, 9), (1..4).each_slice(2).to_a, [3, 1, 2].minmax,
     "ab".each_char.to_a, 7.fdiv(2), 10.digits, Time.at(0).utc.year, [1, 2].sum { |x| x * 2 },
     {a: 1}.map { |k, v| [k, v] }, Comparable.instance_method(:clamp).owner]
  end

  def test_built_in_ruby_methods_made_in_a_ractor_stay_in_it
    mnrb_only
    expected = Ractor.new(&CALLS).take
    3.times { assert_equal expected, Ractor.new(&CALLS).take }
    rs = 4.times.map { Ractor.new(&CALLS) }
    rs.each { |r| assert_equal expected, r.take }
    assert_equal expected, CALLS.call
  end

  # fork while other ractors are being created: the child must be able to create ractors too (the
  # lock on the shared tables is taken by every state's boot; a child that inherited it held by a
  # thread it does not have would hang at its first Ractor.new, and be killed). Not under ASan:
  # its allocator's own lock, held by the creating thread at fork, hangs the child in malloc.
  def test_fork_while_ractors_are_being_created
    mnrb_only
    fork_allowed!
    skip "fork while another thread allocates, under ASan" if MnTest.env("MNRB_SANITIZER") == "asan"
    creator = Ractor.new { 150.times.sum { Ractor.new { 1 }.take } }
    20.times do
      assert_equal [0, "42\n"], forked_output { |wr| wr.puts Ractor.new { 6 * 7 }.take }
    end
    assert_equal 150, creator.take
  end
end
