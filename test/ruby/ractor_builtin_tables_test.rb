# Built-in classes' method tables are shared read-only between ractors (mruby patch 0077): each
# mnrb ractor is a state of its own, and the tables whose methods are all C functions or built-in
# Ruby methods not made yet (Math and its singleton class, Regexp, MatchData, Thread::Queue,
# Random::Formatter, UnboundMethod, Integer, Comparable...) are one process-wide copy that a state
# copies at its first write, a built-in Ruby method made at its first call included. A write to
# such a class in one ractor (def, alias, undef, remove_method, define_method, through a module
# that a class includes) is that ractor's own table's, and reaches main and the other ractors as
# CRuby's does (its ractors share one set of classes) through the definitions log
# (mnrb-ractor definitions_log.c: applied at each one's next ractor operation), each into its own
# copy; what main defined before Ractor.new is in the ractor (Ractor.new copies the definitions its
# creator added). Float and NilClass (tables with Ruby methods, per state) are checked beside them.
# Until sem20k a ractor's writes stayed in it, and these tests checked that.

class RactorBuiltinTablesTest < MnTest::Case
  # A program of its own (its ractors' writes reach its main ractor, where they would change this
  # process's other tests); its last line of output, evaluated.
  def child_result(code)
    out = IO.popen([RbConfig.ruby, "-W:no-experimental", "-e", code], err: [:child, :out], &:read)
    eval(out.lines.last.to_s)
  end

  def test_def_in_a_ractor_reaches_main_and_later_ractors
    inside = Ractor.new do
      Regexp.class_eval { def w20_src; source * 2; end }
      MatchData.class_eval { def w20_first; self[0]; end }
      Float.class_eval { def w20_half; self / 2; end }
      NilClass.class_eval { def w20_nil; :mine; end }
      [/ab/.w20_src, /b+/.match("abbc").w20_first, 4.0.w20_half, nil.w20_nil]
    end.take
    assert_equal ["abab", "bb", 2.0, :mine], inside
    assert_equal ["cdcd", "b", 1.0, :mine], [/cd/.w20_src, /b/.match("b").w20_first, 2.0.w20_half, nil.w20_nil]
    later = Ractor.new { [/a/.respond_to?(:w20_src), 1.0.respond_to?(:w20_half), nil.respond_to?(:w20_nil)] }.take
    assert_equal [true, true, true], later
  end

  def test_a_live_sibling_sees_a_def_at_its_next_receive
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
    assert_equal true, b.take
    assert_equal :q, Thread::Queue.new.w20_q
  end

  def test_alias_undef_and_remove_in_a_ractor_reach_main
    got = child_result(<<~'RUBY')
      inside = Ractor.new do
        Math.singleton_class.class_eval { alias_method :w20_root, :sqrt }
        Math.singleton_class.class_eval { remove_method :cbrt }
        Regexp.class_eval { undef_method :source }
        Float.class_eval { undef_method :ceil }
        [Math.w20_root(9), Math.respond_to?(:cbrt), /x/.respond_to?(:source), 2.5.respond_to?(:ceil)]
      end.take
      mine = [Math.w20_root(16), Math.respond_to?(:cbrt), /x/.respond_to?(:source), 2.5.respond_to?(:ceil)]
      # (a later ractor gets the alias; not the removals: Ractor.new copies what its creator
      # defined, not what it took away from its boot's classes)
      later = Ractor.new { Math.w20_root(4) }.take
      p [inside, mine, later]
    RUBY
    assert_equal [[3.0, false, false, false], [4.0, false, false, false], 2.0], got
  end

  # mnrb-only: a method define_method made from a block that reads no outer variable runs in every
  # ractor here (as the definitions copied at Ractor.new); CRuby raises RuntimeError "defined with
  # an un-shareable Proc in a different Ractor" when another ractor calls it.
  def test_define_method_and_a_redefined_c_method_in_a_ractor_reach_main
    mnrb_only
    got = child_result(<<~'RUBY')
      inside = Ractor.new do
        UnboundMethod.define_method(:w20_dm) { 42 }
        Math.singleton_class.class_eval { def sqrt(x); :redefined; end }
        [Integer.instance_method(:to_s).w20_dm, Math.sqrt(4)]
      end.take
      p [inside, [Integer.instance_method(:to_s).w20_dm, Math.sqrt(4)], Ractor.new { Math.sqrt(9) }.take]
    RUBY
    assert_equal [[42, :redefined], [42, :redefined], :redefined], got
  end

  # A module that classes include shares its table object with their include entries: the copy
  # made at the first write must be what every includer sees, in that ractor and, once they
  # applied the write, in the others.
  def test_a_def_in_an_included_module_reaches_its_includers_everywhere
    got = Ractor.new do
      c = Class.new { include Math }   # Math's table, shared, is included before the write
      Math.module_eval { def w20_m; :m; end }
      Random::Formatter.module_eval { def w20_f; :f; end }
      Kernel.module_eval { def w20_kernel; :k; end }
      [c.new.w20_m, Random.new.w20_f, Object.new.w20_kernel, 1.w20_kernel]
    end.take
    assert_equal [:m, :f, :k, :k], got
    assert_equal [:m, :f, :k], [Class.new { include Math }.new.w20_m, Random.new.w20_f, Object.new.w20_kernel]
    assert_equal [true, true], Ractor.new { [Random.new.respond_to?(:w20_f), 1.respond_to?(:w20_kernel)] }.take
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
  # each sees its own writes at once (no ractor operation in between brings another's), and main
  # all of them once it took every ractor's value. A define_method block reading the ractor's `n`
  # raises in the others (CRuby's RuntimeError), so main's last one applied raises too.
  def test_concurrent_writes_reach_main
    mnrb_only
    got = child_result(<<~'RUBY')
      rs = 6.times.map do |i|
        Ractor.new(i) do |n|
          Regexp.class_eval { define_method(:w20_n) { n } }
          MatchData.class_eval { undef_method :pre_match } if n == 2
          20.times { |j| Math.singleton_class.class_eval { alias_method :"w20_#{n}_#{j}", :sqrt } }
          [/a/.w20_n, Math.send(:"w20_#{n}_19", 16), n != 2 || !/a/.match("ba").respond_to?(:pre_match)]
        end
      end
      inside = rs.map(&:take)
      p [inside, (0..5).all? { |n| Math.send(:"w20_#{n}_0", 9) == 3.0 }, /a/.match("ba").respond_to?(:pre_match),
         (begin; /a/.w20_n; rescue RuntimeError => e; e.message; end)]
    RUBY
    assert_equal [(0..5).map { |n| [n, 4.0, true] }, true, false, "defined with an un-shareable Proc in a different Ractor"], got
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
