# Memory per waiting ractor (issue 20): each mnrb ractor is an mrb_state with its own tables, so
# every per-state byte is paid once per ractor (bench/ractor_memory.rb measures the resident set;
# docs/PERFORMANCE.md, "Memory per waiting ractor, by owner", breaks it down). The bounds here are
# byte counts of a fresh ractor's own tables (Ractor.__state_tables: no timing, no allocator), with
# a margin over what a fresh state held when they were set:
# - method tables of its own (headers included): the built-in classes' tables are process-wide and
#   read-only (mruby patch 0077) unless they hold a proc of the state; a built-in Ruby method that
#   the boot calls no longer puts its proc into its table (0092: a per-state made-methods table
#   instead), so those tables stay shared: 37.5 KiB before (heaptrack), 26.7 KiB (80 tables) after;
# - class ivar tables: a singleton class's table (`__attached__` only) has one slot (0091):
#   ~26.6 KiB before, 20.5 KiB (330 tables) after.
# The behaviour tests check what 0092 changed: a built-in Ruby method made at its first call, then
# called again, listed, aliased, copied with its module, redefined and removed, after collections
# and with GC.stress, in main and in ractors (CRuby runs them too, in a child process).

class RactorMemoryTest < MnTest::Case
  MNRB = RUBY_ENGINE == "mnrb"

  # Set at 27,384 bytes of own method tables (80 tables: lazy entries that keep their class body,
  # procs put by define_method, attr_* or aliases at boot, Struct-made classes) and 20,988 bytes of
  # class ivar tables (330), in a ractor waiting in Ractor.receive: about 10% margin. The ivar bound
  # was lowered to 20 KiB when singleton classes became lazy (mruby patch 0105: 18,656 bytes in 248
  # tables, 81 `__attached__` tables fewer).
  # Lowered again by mruby patches 0133 (lazy entries of nested and singleton class bodies name
  # their body's static irep: 58 tables fewer, 27,840 -> 15,552 bytes in 22 tables) and 0134 (a
  # class's ivar table starts with one slot: 18,656 -> 14,444 bytes).
  # And by 0135 (procs put at boot kept aside, a removed method's slot cleared: 7,296 bytes, 5,472 of
  # them the 228 headers, and one table of its own); the made-methods table grows with what went
  # aside (0133's body map, 0135's procs): 400 -> 4,384 bytes.
  # And by 0222 (a class gets its method table at its first method: 42 headers fewer, 5,544 ->
  # 4,536 bytes).
  MT_BOUND = 5 * 1024
  # And by 0161 (a ractor's boot classes named from bytes kept once per process, not a
  # `__classname__` ivar each: 14,444 bytes in 248 tables -> 11,448 in 141).
  # And by 0221 (a singleton class holding only `__attached__` keeps it in the class, no table:
  # 11,904 bytes in 144 tables -> 9,328 in 52).
  IV_BOUND = 10 * 1024
  IV_COUNT_BOUND = 64
  # And by 0146 (the made-methods table grows at 7/8 used: its ~51 entries in 64 slots, not 128):
  # 4,400 -> 2,864 bytes with the body map. mem20h (0279): the map's entries 16 -> 32 bytes (what
  # makes a dropped body again), its free tail cut: 3,120 -> 4,464 bytes, for 85 body procs
  # (~4 KiB of heap) fewer in every copy.
  MADE_BOUND = 5120

  def run_child(src)
    out = IO.popen([RbConfig.ruby, "-e", src], err: [:child, :out], &:read)
    assert $?.success?, "child failed: #{out}"
    out.lines.last   # after CRuby's "Ractor is experimental" warning
  end

  def test_a_waiting_ractor_owns_few_table_bytes
    skip "one state per ractor is mnrb's" unless MNRB
    out = run_child(<<~RUBY)
      r = Ractor.new { Ractor.receive; Ractor.__state_tables }
      r << 1
      p r.take
    RUBY
    mt_bytes, mt_count, iv_bytes, iv_count, made_bytes = eval(out)
    assert mt_bytes < MT_BOUND, "a fresh ractor's own method tables: #{mt_bytes} bytes in #{mt_count} (bound #{MT_BOUND})"
    assert iv_bytes < IV_BOUND, "a fresh ractor's class ivar tables: #{iv_bytes} bytes in #{iv_count} (bound #{IV_BOUND})"
    assert iv_count <= IV_COUNT_BOUND, "a fresh ractor's class ivar tables: #{iv_count} (bound #{IV_COUNT_BOUND})"
    assert made_bytes < MADE_BOUND, "a fresh ractor's made-methods table: #{made_bytes} bytes"
  end

  # What a ractor that only waits never uses is not made: its constant cache (4.1 KiB; mruby patch
  # 0107 makes it after a warm-up of lookups) and STDIN's read buffer (4 KiB; 0106 makes it at the
  # first read). Both were made in every state's boot before. A ractor that reads and looks
  # constants up gets them.
  def test_a_waiting_ractor_has_no_constant_cache_nor_stdin_buffer
    skip "one state per ractor is mnrb's" unless MNRB
    out = run_child(<<~RUBY)
      r = Ractor.new { Ractor.receive; [Ractor.__state_tables[5], $stdin.__read_buffer_bytes] }
      r << 1
      busy = Ractor.new do
        100.times { [Comparable, Enumerable, Kernel, Math::PI, File::SEPARATOR, IO::SEEK_SET] }
        rd, wr = IO.pipe
        wr << "x"
        rd.read(1)
        [Ractor.__state_tables[5], rd.__read_buffer_bytes > 0]
      end
      p [r.take, busy.take]
    RUBY
    assert_equal [[0, 0], [1, true]], eval(out)
  end

  # Kernel, Array, String, Range... hold C functions and built-in Ruby methods not made yet: after
  # main calls some of those Ruby methods, main's own tables grow by no copy of them.
  def test_calling_built_in_ruby_methods_copies_no_table
    skip "one state per ractor is mnrb's" unless MNRB
    out = run_child(<<~RUBY)
      before = Ractor.__state_tables
      [3, 1, 2].each_slice(2).to_a; 1.step(5, 2).to_a; 5.clamp(1, 3); (1..4).each_cons(2).to_a
      "%05d" % 3; Integer("12"); Float("1.5"); [1, 2].each_with_object([]) { |x, a| a << x }
      p [before, Ractor.__state_tables]
    RUBY
    before, after = eval(out)
    assert_equal before[0..1], after[0..1], "own method tables (bytes, count) before and after the calls"
    assert after[4] > 0, "the made procs are in the made-methods table"
  end

  BEHAVIOUR = <<~'RUBY'
    def check
      Enumerable.module_eval { alias_method :mem20_each_slice, :each_slice }
      r = []
      r << [3, 1, 2].each_slice(2).to_a << 1.step(5, 2).to_a << 7.clamp(1, 3) << (1..4).each_cons(2).to_a
      GC.start
      r << [3, 1, 2].each_slice(1).to_a << 10.clamp(1, 3)
      r << Enumerable.instance_methods(false).include?(:each_slice)
      r << (Comparable.instance_method(:clamp) == Comparable.instance_method(:clamp))
      GC.stress = true if GC.respond_to?(:stress=)
      r << [1, 2, 3].each_cons(2).map { |a, b| a + b } << (1..3).each_slice(2).to_a << 4.clamp(5, 6)
      GC.stress = false if GC.respond_to?(:stress=)
      Comparable.module_eval { alias_method :mem20_clamp, :clamp }
      r << 9.mem20_clamp(1, 2)
      copy = Comparable.dup
      k = Class.new { include copy; attr_reader :v; def initialize(v) = @v = v; def <=>(o) = v <=> o.v }
      r << k.new(5).clamp(k.new(1), k.new(3)).v
      Enumerable.module_eval { def each_slice(n) = :mem20_mine }
      r << [1, 2].each_slice(1)
      Enumerable.module_eval { remove_method :each_slice }
      r << (begin; [1].each_slice(1); rescue NoMethodError; :gone; end)
      Enumerable.module_eval { def each_slice(n) = :mem20_again }
      r << [1].each_slice(1)
      GC.start
      r << 8.clamp(1, 2) << 9.mem20_clamp(1, 2)
      Enumerable.module_eval { alias_method :each_slice, :mem20_each_slice }   # as it was, for the next
      r
    end
  RUBY

  EXPECTED = [[[3, 1], [2]], [1, 3, 5], 3, [[1, 2], [2, 3], [3, 4]], [[3], [1], [2]], 3, true, true,
              [3, 5], [[1, 2], [3]], 5, 2, 3, :mem20_mine, :gone, :mem20_again, 2, 2]

  def test_built_in_ruby_methods_made_redefined_and_removed_in_main
    out = run_child(BEHAVIOUR + "p check")
    assert_equal EXPECTED, eval(out)
  end

  # In ractors (each a state of its own in mnrb: it makes its own procs). Three ractors live at
  # once but run `check` one after another: another's definitions reach a ractor at its ractor
  # operations (its receive, here), and `check` removes each_slice for a while, as it would for
  # every ractor in CRuby, where all three redefine one Enumerable; each `check` puts each_slice
  # back as it found it, for the next.
  def test_built_in_ruby_methods_made_redefined_and_removed_in_ractors
    mnrb_only
    out = run_child(BEHAVIOUR + <<~'RUBY')
      rs = 3.times.map { Ractor.new { Ractor.receive; check } }
      p rs.map { |r| r << 1; r.take }
    RUBY
    assert_equal [EXPECTED] * 3, eval(out)
  end

  # Two ractors' boots make the same methods; one ends (its state and its procs freed) while the
  # other and later ones call them (a made proc that reached a shared array would be a dead one).
  def test_made_methods_outlive_an_ended_ractor
    out = run_child(<<~'RUBY')
      a = Ractor.new { [Integer("7"), "%03d" % 5, [1, 2, 3].each_slice(2).to_a] }.take
      b = 4.times.map { Ractor.new { GC.start; [Integer("7"), "%03d" % 5, [1, 2, 3].each_slice(2).to_a] } }.map(&:take)
      GC.start
      p [a, b.uniq, [Integer("7"), "%03d" % 5, [1, 2, 3].each_slice(2).to_a]]
    RUBY
    v = [7, "005", [[1, 2], [3]]]
    assert_equal [v, [v], v], eval(out)
  end

  # Built-in Ruby methods defined in nested class bodies (File::Stat's, reading File::Stat's
  # constants S_IFMT and TYPES) and by `def self.x` (Signal.list and Signal.signame, reading
  # Signal::LIST; Process.waitpid2...) are lazy entries whose class body used to stay in the entry,
  # so their tables were each state's own; mruby patch 0133 keeps the body in a per-state map by
  # its static irep and the entry names the irep: the tables are shared (0077). Made before and
  # after collections, under GC.stress, in main and in ractors that end while others call them.
  NESTED = <<~'RUBY'
    def nested_check
      r = []
      st = File.stat("/")
      r << st.ftype << st.directory? << st.file? << (st <=> File.stat("/"))
      r << Signal.list["TERM"] << Signal.signame(9)
      GC.start
      r << File.stat("/").ftype << Signal.signame(15) << File::Stat.instance_method(:ftype).owner.name
      GC.stress = true if GC.respond_to?(:stress=)
      r << File.stat("/").chardev? << Signal.list.key(2) << File::Stat.name << Signal.method(:list).owner.inspect
      GC.stress = false if GC.respond_to?(:stress=)
      r
    end
  RUBY

  NESTED_EXPECTED = ["directory", true, false, 0, 15, "KILL", "directory", "TERM", "File::Stat",
                     false, "INT", "File::Stat", "#<Class:Signal>"]

  def test_nested_and_singleton_built_in_methods_in_main
    out = run_child(NESTED + "p nested_check")
    assert_equal NESTED_EXPECTED, eval(out)
  end

  def test_nested_and_singleton_built_in_methods_in_ractors
    assert_same_in_ractors(NESTED, "nested_check", NESTED_EXPECTED)
  end

  # `check` (a method the prelude defines) gives `expected` in a first ractor, in three ractors
  # that wait and collect first, and in main after them.
  def assert_same_in_ractors(prelude, check, expected)
    out = run_child(prelude + <<~RUBY)
      first = Ractor.new { #{check} }.take
      rs = 3.times.map { Ractor.new { Ractor.receive; GC.start; #{check} } }
      rs.each { |r| r << 1 }
      p [first, rs.map(&:take).uniq, #{check}]
    RUBY
    assert_equal [expected, [expected], expected], eval(out)
  end

  # A built-in `def self.x` that reads and sets a class variable (mruby-socket's BasicSocket): the
  # class-variable lookup walks the method's upper procs past singleton classes to the class body,
  # so the body proc 0133 keeps in the state's body map must be the one the method is made over
  # (a static stand-in without a class, as 0072's for top-level bodies, would end that walk at NULL).
  def test_class_variable_of_a_built_in_singleton_method
    out = run_child(<<~'RUBY')
      require "socket"
      a = BasicSocket.do_not_reverse_lookup
      GC.start
      BasicSocket.do_not_reverse_lookup = false
      p [a, BasicSocket.do_not_reverse_lookup]
    RUBY
    assert_equal [true, false], eval(out)
  end

  # Procs the boot puts into tables (Struct's accessors of Process::Tms, attr readers of
  # UncaughtThrowError, NameError, NoMethodError, Complex, Rational...) are kept aside by mruby patch
  # 0135 with a marker in the slot, and a method the boot removes (Integer#step, Float#step, for
  # Numeric's) leaves no stale value: those tables are shared too. The six frozen immediates' classes
  # get instance_variable_set from one class body each (mnrb-compat's frozen_immediates.rb), no
  # longer from a class_eval block per class. Three rounds: plain, after GC.start, under GC.stress.
  BOOT_PROCS = <<~'RUBY'
    def boot_check
      r = []
      3.times do |i|
        GC.start if i == 1
        GC.stress = true if i == 2 && GC.respond_to?(:stress=)
        t = Process.times
        r << [t.utime.is_a?(Float), t.members.first]
        r << (begin; throw :body20, 1; rescue UncaughtThrowError => e; [e.tag, e.value]; end)
        r << (begin; body20_nothing; rescue NameError => e; e.name; end)
        r << (begin; 1.body20_nothing(2); rescue NoMethodError => e; [e.name, e.args]; end)
        r << Complex(1, 2).rectangular << Rational(6, 4).numerator
        r << 1.step(7, 3).to_a << 1.0.step(2.0, 0.5).to_a << Integer.instance_method(:step).owner
        r << [1, 1.5, :s, nil, true, false].map { |v| begin; v.instance_variable_set(:@a, 1); rescue FrozenError => e; e.message; end }
        GC.stress = false if GC.respond_to?(:stress=)
      end
      r.each_slice(r.size / 3).to_a.uniq
    end
  RUBY

  FROZEN = ["Integer: 1", "Float: 1.5", "Symbol: :s", "NilClass: nil", "TrueClass: true", "FalseClass: false"]
  BOOT_EXPECTED = [[[true, :utime], [:body20, 1], :body20_nothing, [:body20_nothing, [2]], [1, 2], 3, [1, 4, 7],
                    [1.0, 1.5, 2.0], Numeric, FROZEN.map { |f| "can't modify frozen #{f}" }]]

  def test_boot_procs_and_removed_methods_in_main
    out = run_child(BOOT_PROCS + "p boot_check")
    assert_equal BOOT_EXPECTED, eval(out)
  end

  def test_boot_procs_and_removed_methods_in_ractors
    assert_same_in_ractors(BOOT_PROCS, "boot_check", BOOT_EXPECTED)
  end

  # mem20g: a copied ractor's root context starts with the stack values and frames a waiting
  # ractor uses (48 and 8; a boot leaves 128 and 32: state_snapshot.c root_stacks_trim), and grows
  # from there as any context does. What must hold after that growth: deep recursion of a lambda
  # and of a method (frames), a method with 200 locals (stack), a proc whose env is on the stack
  # of the frame that made it read after the stack moved, blocks of C methods, an exception from
  # 300 frames down, a Fiber, again after GC.start; in main, a ractor and three waiting ractors.
  STACKS = <<~'RUBY'
    def stacks_raise(n) = n == 0 ? raise(ArgumentError, "deep") : stacks_raise(n - 1)
    def stacks_check
      a = 1; b = 2
      pr = proc { a + b }
      deep = ->(n) { n == 0 ? 0 : 1 + deep.(n - 1) }
      r = [deep.(2000), pr.call]
      Object.class_eval("def stacks_locals\n" + 200.times.map { |i| "v#{i} = #{i}\n" }.join + 200.times.map { |i| "v#{i}" }.join(" + ") + "\nend")
      r << stacks_locals << pr.call
      r << [1, 2, 3].each_slice(1).map { |x| x.sum + pr.call }
      r << (0...200).inject(0) { |s, i| s + [i].map { |j| j * 2 }.first }
      r << (begin; stacks_raise(300); rescue ArgumentError => e; [e.message, e.backtrace.size > 300]; end)
      f = Fiber.new { Fiber.yield deep.(500); 7 }
      r << [f.resume, f.resume]
      GC.start
      a = 10
      r << pr.call << deep.(1000)
    end
  RUBY
  STACKS_EXPECTED = [2000, 3, 19900, 3, [4, 5, 6], 39800, ["deep", true], [500, 7], 12, 1000]

  def test_stacks_grown_from_a_small_start_in_main
    out = run_child(STACKS + "p stacks_check")
    assert_equal STACKS_EXPECTED, eval(out)
  end

  def test_stacks_grown_from_a_small_start_in_ractors
    assert_same_in_ractors(STACKS, "stacks_check", STACKS_EXPECTED)
  end

  def test_a_copied_ractor_starts_with_small_root_stacks
    skip "one state per ractor is mnrb's" unless MNRB
    skip "ractors boot (MNRB_SNAPSHOT=#{ENV["MNRB_SNAPSHOT"]}): not copies" if ENV["MNRB_SNAPSHOT"] && ENV["MNRB_SNAPSHOT"] != "copy"
    out = run_child(<<~'RUBY')
      def f(n) = n == 0 ? 0 : 1 + f(n - 1)
      r = Ractor.new { Ractor.receive; a = Ractor.__state_tables[7, 2]; [a, f(3000), Ractor.__state_tables[7, 2]] }
      r << 1
      p r.take
    RUBY
    (values, frames), depth, (values_after, frames_after) = eval(out)
    assert values <= 48 && frames <= 8, "a waiting copy's root context: #{values} stack values, #{frames} frames (at most 48 and 8)"
    assert_equal 3000, depth
    assert values_after > 3000 && frames_after > 3000, "grown: #{values_after} values, #{frames_after} frames"
  end

  # mem20c: a booting state's small blocks come from slabs of 8-byte size classes (mnrb-ractor
  # state_alloc.c), not glibc, and a ractor's mrb_state has 64 method cache sets, 4 KiB (mruby patch
  # 0145), so that its block with its record is two pages. Set at 85 KiB resident and 8.5 KiB of
  # glibc chunks per waiting ractor (main before: 98 KiB and 35.5 KiB); the bounds have margin.
  # Lowered by mem20d: mruby patches 0161 (a ractor's boot classes keep no name ivar table nor path
  # String) and 0162 (a ractor's third heap page 192 slots): 84-85 -> 77-78 KiB (500 ractors).
  # Lowered by mem20f: mruby patches 0221 (singleton classes without an `__attached__` table) and
  # 0222 (classes without an empty method table): 71-72 -> 67 KiB.
  # mem20g: measured once every ractor has run (each tells the main ractor before it waits, as
  # bench/ractor_memory.rb now does; read right after the Ractor.new calls, as before, almost none
  # had run: their C stack pages and setup were left out, 4 KiB a ractor), and a copied ractor's root
  # context starts with 48 stack values and 8 frames, not 128 and 32 (state_snapshot.c
  # root_stacks_trim), the first Ractor.new (which makes the template, once) before the first
  # reading: main's binary 70.8-71.0 KiB, 68.8-69.3 now.
  # mem20i (mruby 0290: the template's made procs dropped, its boot accessor procs made at their
  # first call): 66.5-66.6 -> 63.1-63.2 KiB.
  RSS_BOUND = 65          # KiB per waiting ractor (bench/ractor_memory.rb's measure, 500 ractors; 63.2 at mem20i)
  RSS_RACTORS = 500
  GLIBC_BOUND = 16 * 1024 # bytes of glibc chunks per waiting ractor (MNRB.malloc_bytes)

  # mem20d (mruby patch 0162): a ractor's boot takes a third heap page of 192 slots, not 256, and
  # its block starts with about as many free slots as before (0161 made ~60 Strings fewer): 704
  # slots, 116 free (main before: 768, 120 free).
  # mem20e (0195): a copied ractor's heap is the template's packed (state_snapshot.c: the boot's
  # garbage collected, the third page's objects moved into free slots of the first two, the page
  # shortened to keep 48 free slots): 625 slots, 34 free at its block's start. A booted ractor
  # (MNRB_SNAPSHOT=boot) is as before.
  def test_a_fresh_ractor_heap_is_packed
    skip "one state per ractor is mnrb's" unless MNRB
    out = run_child('p Ractor.new { c = ObjectSpace.count_objects; [c[:TOTAL], c[:FREE]] }.take')
    total, free = eval(out)
    # packed: few free slots (a booted state's heap: 704 slots, 94 free at this commit); the
    # total follows what the boot makes (625 at mem20e's merge, 644 after the session's gems)
    assert free <= 64, "a fresh ractor's heap is not packed: #{free} free of #{total} slots"
    assert total <= 672, "a fresh ractor's heap: #{total} slots (bound 672)"
    assert free >= 24, "a fresh ractor's free slots at its block's start: #{free} of #{total}"
  end

  # mem20h (mruby 0279): the template's class-body procs that no made method needs are dropped and
  # made again at the first call of one of their methods (0133's body map keeps what makes them):
  # a fresh copy holds at most PROC_BOUND procs (177 before, 90 of them bodies; 93 after). The methods of
  # dropped bodies answer as before: the NESTED and class-variable tests above, in ractors.
  PROC_BOUND = 120
  def test_a_fresh_ractor_holds_few_class_body_procs
    skip "one state per ractor is mnrb's" unless MNRB
    skip "ractors boot (MNRB_SNAPSHOT=#{ENV["MNRB_SNAPSHOT"]})" if ENV["MNRB_SNAPSHOT"] && ENV["MNRB_SNAPSHOT"] != "copy"
    out = run_child(<<~'RUBY')
      p Ractor.new { ObjectSpace.count_objects[:T_PROC] }.take
    RUBY
    procs = eval(out)
    assert procs <= PROC_BOUND, "a fresh ractor holds #{procs} procs (bound #{PROC_BOUND})"
  end

  # mem20i (mruby 0290): the template's procs made for lazy entries (21 of its boot's calls:
  # Kernel#Integer, Array#each...) are forgotten and made again at a copy's first call, and the
  # accessor procs put aside at boot (attr_reader/attr_writer's, Struct's: a C function over an env
  # of one name or index, 24 of 34, each with its env) are kept as how to make them, made at their
  # first call: a fresh copy held 93 procs and 25 envs, 49 and 4 now.
  FRESH_PROC_BOUND = 64
  FRESH_ENV_BOUND = 12
  def test_a_fresh_ractor_holds_no_boot_accessor_procs
    skip "one state per ractor is mnrb's" unless MNRB
    skip "ractors boot (MNRB_SNAPSHOT=#{ENV["MNRB_SNAPSHOT"]})" if ENV["MNRB_SNAPSHOT"] && ENV["MNRB_SNAPSHOT"] != "copy"
    procs, envs = eval(run_child('p Ractor.new { ObjectSpace.count_objects.values_at(:T_PROC, :T_ENV) }.take'))
    assert procs <= FRESH_PROC_BOUND, "a fresh ractor holds #{procs} procs (bound #{FRESH_PROC_BOUND})"
    assert envs <= FRESH_ENV_BOUND, "a fresh ractor holds #{envs} envs (bound #{FRESH_ENV_BOUND})"
  end

  # What 0290 makes again answers as the boot's procs did: the built-in accessors (attr_reader and
  # attr_writer of Rational, Complex and the exceptions, Process::Tms's Struct accessors) read and
  # write, are found by instance_method and aliased; built-in Ruby methods the boot had made
  # (Integer(), each, format) run. CRuby 3.3.8 and 3.1 give the same.
  ACCESSORS = <<~'RUBY'
    def accessor_check
      t = Process.times
      t.utime = 5
      stop = (begin; [].each.next; rescue StopIteration => e; e.result; end)
      thrown = (throw :nope, 1 rescue $!)
      missing = (nil.no_such_method_x(1) rescue $!)
      key = ({}.fetch(:zz) rescue $!)
      name = (NameError.new("n", :nm))
      [Rational(3, 4).numerator, Rational(3, 4).denominator, Complex(1, 2).real, Complex(1, 2).imaginary,
       Complex(1, 2).imag, t.utime, t.stime.class, t.cutime.class, t.cstime.class, stop,
       thrown.tag, thrown.value, missing.name, missing.args, key.key, key.receiver, name.name,
       Rational.instance_method(:numerator).owner, Process::Tms.instance_method(:utime).bind(t).call,
       Integer("12"), [1, 2].each { }, format("%03d", 7)]
    end
  RUBY
  ACCESSORS_EXPECTED = [3, 4, 1, 2, 2, 5, Float, Float, Float, [], :nope, 1, :no_such_method_x, [1],
                        :zz, {}, :nm, Rational, 5, 12, [1, 2], "007"]

  def test_boot_accessors_and_made_methods_in_main
    assert_equal ACCESSORS_EXPECTED, eval(run_child(ACCESSORS + "p accessor_check"))
  end

  def test_boot_accessors_and_made_methods_in_ractors
    assert_same_in_ractors(ACCESSORS, "accessor_check", ACCESSORS_EXPECTED)
  end

  # A built-in accessor aliased, redefined and removed (0290: its made entry, a recipe, is dropped
  # with the slot it stood for). In ractors on mnrb only: CRuby's ractors share the classes.
  ACCESSOR_REDEFINED = <<~'RUBY'
    def accessor_redefined_check
      Complex.alias_method(:imag2, :imag)
      a = [Complex(1, 7).imag2]
      Process::Tms.class_eval { def stime = :redefined }
      a << Process.times.stime
      Process::Tms.send(:remove_method, :stime)
      a << Process.times.respond_to?(:stime)
      Rational.class_eval { def numerator = :mine }
      a << Rational(3, 4).numerator << Rational(3, 4).denominator
    end
  RUBY
  ACCESSOR_REDEFINED_EXPECTED = [7, :redefined, false, :mine, 4]

  def test_boot_accessors_redefined_in_main
    assert_equal ACCESSOR_REDEFINED_EXPECTED, eval(run_child(ACCESSOR_REDEFINED + "p accessor_redefined_check"))
  end

  def test_boot_accessors_redefined_in_ractors
    skip "one state per ractor is mnrb's" unless MNRB
    out = run_child(ACCESSOR_REDEFINED + <<~'RUBY')
      rs = 3.times.map { Ractor.new { Ractor.receive; GC.start; accessor_redefined_check } }
      rs.each { |r| r << 1 }
      p [Ractor.new { accessor_redefined_check }.take, rs.map(&:take).uniq]
    RUBY
    assert_equal [ACCESSOR_REDEFINED_EXPECTED, [ACCESSOR_REDEFINED_EXPECTED]], eval(out)
  end

  def test_a_ractor_state_has_half_the_method_cache
    skip "one state per ractor is mnrb's" unless MNRB
    out = run_child('p [Ractor.__state_tables[6], Ractor.new { Ractor.__state_tables[6] }.take]')
    assert_equal [8192, 4096], eval(out)
  end

  def test_waiting_ractors_resident_set_and_glibc_chunks
    skip "one state per ractor is mnrb's" unless MNRB
    skip "sanitizer build (no slabs, no pooling)" if ENV["MNRB_SANITIZER"]
    skip "ractors boot (MNRB_SNAPSHOT=#{ENV["MNRB_SNAPSHOT"]}): the bound is a copy's" if ENV["MNRB_SNAPSHOT"] && ENV["MNRB_SNAPSHOT"] != "copy"
    skip "no /proc" unless File.exist?("/proc/self/status")
    out = IO.popen({ "RUBY_MAX_PROC" => "1", "RUBY_MN_THREADS" => nil }, [RbConfig.ruby, "-e", <<~'RUBY', RSS_RACTORS.to_s], err: [:child, :out], &:read)
      def rss = File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i
      n = ARGV[0].to_i
      Ractor.new { 1 }.take   # the template (made once per process) out of the figure
      GC.start
      rss0, glibc0 = rss, MNRB.malloc_bytes
      me = Ractor.current
      rs = n.times.map { Ractor.new(me) { |main| main << 1; Ractor.receive } }
      n.times { Ractor.receive }
      p [(rss - rss0).fdiv(n), (MNRB.malloc_bytes - glibc0).fdiv(n)]
      rs.each { |r| r << 1 }
      rs.each(&:take)
    RUBY
    assert $?.success?, "child failed: #{out}"
    rss_kib, glibc = eval(out.lines.last)
    assert rss_kib < RSS_BOUND, "resident set per waiting ractor: #{rss_kib.round(1)} KiB (bound #{RSS_BOUND})"
    assert glibc < GLIBC_BOUND, "glibc chunks per waiting ractor: #{glibc.round} bytes (bound #{GLIBC_BOUND})"
  end

  # A ractor's cache has 128 entries (64 sets of two): one method inherited by 100 classes and
  # cached for them, then redefined, removed and defined again, then hidden by a prepended module,
  # must be seen by all (class.c's clearing scans walk the state's entries, not main's 256: with
  # the scan by name walking half of them, b and c came out 154 and 208 in main, 196 and 291 in a
  # ractor).
  CACHE = <<~'RUBY'
    def cache_check
      base = Class.new { def m = 1 }
      objs = 100.times.map { Class.new(base).new }
      a = objs.sum(&:m)
      base.class_eval { def m = 2 }
      b = objs.sum(&:m)
      base.send(:remove_method, :m)
      base.define_method(:m) { 3 }
      c = objs.sum(&:m)
      base.prepend(Module.new { def m = 4 })
      [a, b, c, objs.sum(&:m)]
    end
  RUBY
  CACHE_EXPECTED = [100, 200, 300, 400]

  def test_method_cache_cleared_in_main
    assert_equal CACHE_EXPECTED, eval(run_child(CACHE + "p cache_check"))
  end

  def test_method_cache_cleared_in_ractors
    assert_same_in_ractors(CACHE, "cache_check", CACHE_EXPECTED)
  end
end
