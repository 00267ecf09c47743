# A fresh ractor's state stays lean (issue 20, memory and creation): each mnrb ractor is an
# mrb_state that boots every gem, so whatever a gem makes eagerly at boot is paid for by every
# ractor. The bounds below have about 10% margin over what a fresh state held when they were set
# (761 live objects, 183 procs, 132 strings, in four 256-slot pages: 1,024 slots): a gem that adds
# a hundred eager objects at boot fails them. Before the first lean work a fresh state held 1,256
# objects (477 procs) in six pages; prepends of Enumerator and Lazy (every later def in them made
# its proc at boot) and class bodies added later had grown it to 901 in five pages (313 procs); 871
# without them, and 761 once lazy methods no longer keep their class bodies (mruby patch 0072).
# The behaviour tests check what was made lazy or lighter: built-in aliases (mruby patch 0055:
# `alias` in built-in code stores no proc until the alias is first called), include/prepend/extend
# (C, 0055), built-in features loaded at their first require (no per-state table), the gems'
# readers (defs, not attr_reader), Rational's and Complex's string patterns (compiled at first use),
# and Ractor.new's definition copy, which no longer makes every built-in method's proc in the
# ractor that creates.

class RactorLeanStateTest < MnTest::Case
  MNRB = RUBY_ENGINE == "mnrb"

  # In a program of its own: a ractor of this test process would also hold the copies of the test
  # library's classes.
  def fresh_ractor_counts
    out = IO.popen([RbConfig.ruby, "-e", <<~RUBY], &:read)
      r = Ractor.new do
        GC.start
        c = ObjectSpace.count_objects
        live = c.sum { |k, v| k == :TOTAL || k == :FREE ? 0 : v }
        [live, c[:TOTAL], c[:T_PROC].to_i, c[:T_STRING].to_i, c[:T_SCLASS].to_i]
      end
      p r.take
    RUBY
    eval(out)
  end

  def test_a_fresh_ractor_holds_few_objects
    skip "one heap per ractor is mnrb's" unless MNRB
    live, slots, procs, strings, = fresh_ractor_counts
    assert live < 840, "a fresh ractor holds #{live} live objects (bound 840)"
    # Four pages: a fresh ractor's boot allocated 1,027 objects after the merges of mruby patches
    # 0081-0089 (1,021 before), so the GC added a fifth page; ten of them were Range's lazy procs,
    # made by mnrb-compat's boot-time `Range.instance_methods(false)` (mruby patch 0090 lists
    # names without making procs), six were procs made and at once replaced by Ractor.new's copy
    # of its creator's C methods (mnrb-ractor definitions.c, copy_cfunc).
    # Three pages since mruby patch 0108: a ractor's boot (927 objects made, ~665 live) collects
    # once when its first three pages are full instead of taking a fourth.
    assert slots <= 768, "a fresh ractor's heap has #{slots} slots (bound 768: three 256-slot pages)"
    assert procs < 205, "a fresh ractor holds #{procs} procs (bound 205: 183 when set; 293 before mruby patch 0072)"
    assert strings < 150, "a fresh ractor holds #{strings} strings (bound 150)"
  end

  # mruby patch 0105: a class's singleton class is made when something needs it (a class method, an
  # extend, singleton_class), and so is the singleton class of a module's singleton class: a fresh
  # ractor held 173 singleton classes (every class's, and one more for each of 24 modules with
  # module functions), 92 after. The bound fails if classes get theirs eagerly again.
  def test_a_fresh_ractor_makes_singleton_classes_when_needed
    skip "one heap per ractor is mnrb's" unless MNRB
    *, sclasses = fresh_ractor_counts
    assert sclasses < 105, "a fresh ractor holds #{sclasses} singleton classes (bound 105; 173 before mruby patch 0105)"
  end

  # mruby patch 0090: listing a class's methods (instance_methods, singleton_methods) names its lazy
  # built-in methods without making their procs; before, this made 299 procs in a fresh ractor
  def test_listing_methods_makes_no_procs
    skip "lazy built-in methods are mnrb's" unless MNRB
    made, names, lazy_listed = Ractor.new do
      GC.start
      before = ObjectSpace.count_objects[:T_PROC]
      n = [Array, Hash, String, Integer, Enumerable, Kernel, Comparable].sum { |c| c.instance_methods(false).size }
      n += [Math, File].sum { |c| c.singleton_methods.size }
      GC.start
      [ObjectSpace.count_objects[:T_PROC] - before, n,
       [Enumerable.instance_methods(false).include?(:each_slice), Range.instance_methods(false).include?(:each)]]
    end.take
    assert_equal 0, made, "procs made by listing #{names} methods"
    assert_equal [true, true], lazy_listed
  end

  # A module prepended to a built-in class makes every later def in that class eager (mruby patch
  # 0013 defers defs only into classes without an origin): the gems wrap methods with aliases.
  def test_built_in_enumerators_have_no_prepended_modules
    [Enumerator, Enumerator::Lazy, File, Dir].each do |c|
      assert_same c, c.ancestors.first, "#{c}.ancestors starts with #{c.ancestors.first}"
      assert_same c.singleton_class, c.singleton_class.ancestors.first
    end
    assert_equal 3, Enumerator.new(3) { |y| y << 1 }.size
    assert_equal 2, Enumerator::Lazy.new([1, 2, 3], 2) { |y, v| y << v }.size
    assert_equal 3, [1, 2, 3].lazy.map { _1 }.zip([4]).size
    assert_equal 2, Class.new(Enumerator::Lazy) { def initialize(o, s) = super(o, s) { |y, v| y << v } }.new([1], 2).size
  end

  # mruby patch 0072: a lazy built-in method does not keep its class body; made at its first call
  # (after a collection), it finds constants as before, its own class's before the top level's
  # (mruby's Enumerator#initialize names Generator, Lazy's methods name Lazy)
  def test_built_in_methods_find_constants_without_their_class_bodies
    out = IO.popen([RbConfig.ruby, "-e", <<~RUBY], &:read)
      Generator = :top_level
      Yielder = :top_level
      GC.start
      a = [Enumerator.new { |y| y << 1; y << 2 }.to_a, [3, 4].lazy.map { _1 * 2 }.select(&:even?).first(2)]
      b = Ractor.new { GC.start; [Enumerator.new { |y| y << 5 }.to_a, File.basename("/a/b.rb", ".rb"), Complex(3, 4).abs] }.take
      p a + b
    RUBY
    assert_equal "[[1, 2], [6, 8], [5], \"b\", 5.0]", out.strip
  end

  # Integer's and Float's coercing operators and Math's functions are wrapped at each state's boot;
  # a ractor's state wraps them without looking the originals up again (mnrb-rational coerce.c)
  def test_coercing_operators_in_a_new_ractor
    r = Ractor.new do
      [1 + Rational(1, 3), 2.0 * Complex(1, 1), 3 <=> Rational(3), 2 ** -1, Math.sqrt(Rational(9)), 1.5 < Rational(2), 7.divmod(2.0)]
    end
    assert_equal [Rational(4, 3), Complex(2.0, 2.0), 0, Rational(1, 2), 3.0, true, [3, 1.0]], r.take
  end

  def test_creating_a_ractor_makes_few_procs_in_its_creator
    Ractor.new { 1 }.take        # the first creation may set up what later ones reuse
    GC.start
    before = ObjectSpace.count_objects[:T_PROC].to_i
    Ractor.new { 2 }.take
    GC.start
    grown = ObjectSpace.count_objects[:T_PROC].to_i - before
    assert grown < 50, "Ractor.new left #{grown} more procs in its creator"
  end

  def test_the_first_ractor_makes_no_built_in_procs_in_main
    skip "one heap per ractor is mnrb's" unless MNRB
    out = IO.popen([RbConfig.ruby, "-e", <<~RUBY], &:read)
      GC.start
      a = ObjectSpace.count_objects[:T_PROC]
      Ractor.new { 1 }.take
      GC.start
      p ObjectSpace.count_objects[:T_PROC] - a
    RUBY
    assert out.to_i < 100, "the first Ractor.new made #{out.to_i} procs in main (939 before mruby patch 0055)"
  end

  def test_built_in_aliases_behave_as_their_originals
    c = Complex(3, 4)
    assert_equal 5.0, c.magnitude
    assert_equal c.abs, c.magnitude
    assert_equal c.arg, c.angle
    assert_equal c.arg, c.phase
    assert_equal [3, 4], c.rect
    assert_equal c.rectangular, c.rect
    assert_equal Complex, c.method(:magnitude).owner
    assert_equal c.method(:abs).arity, c.method(:magnitude).arity
    assert_equal :magnitude, c.method(:magnitude).name
    assert_equal true, ENV.has_key?("PATH")
    assert_equal false, ENV.member?("MNRB_NO_SUCH_VARIABLE_X")
    assert_equal ENV.key?("HOME"), ENV.include?("HOME")
  end

  def test_built_in_aliases_survive_a_collection_before_their_first_call
    GC.start
    assert_equal [1, 2], Complex(1, 2).rect
    GC.start
    assert_equal [1, 2], Complex(1, 2).rect
  end

  def test_built_in_aliases_in_a_fresh_ractor
    r = Ractor.new do
      c = Complex(3, 4)
      [c.magnitude, c.angle == c.arg, c.rect, ENV.has_key?("PATH"), c.method(:phase).owner]
    end
    assert_equal [5.0, true, [3, 4], true, Complex], r.take
  end

  def test_a_ractor_created_after_main_called_an_alias
    assert_equal [5, 6], Complex(5, 6).rect       # its proc is made in main
    assert_equal [[5, 6], 5.0], Ractor.new { [Complex(5, 6).rect, Complex(3, 4).magnitude] }.take
  end

  def test_the_programs_alias_of_a_built_in_alias_reaches_ractors
    Complex.class_eval { alias_method :__lean_test_mag, :magnitude }
    assert_equal 5.0, Complex(3, 4).__lean_test_mag
    assert_equal 5.0, Ractor.new { Complex(3, 4).__lean_test_mag }.take
  ensure
    Complex.class_eval { remove_method :__lean_test_mag } if Complex.method_defined?(:__lean_test_mag)
  end

  def test_super_from_a_subclass_reaches_a_built_in_alias
    k = Class.new(Hash) do
      def has_key?(x) = [:sub, super]
      def member?(x) = [:sub, super]
    end
    h = k.new
    h[:a] = 1
    assert_equal [:sub, true], h.has_key?(:a)
    assert_equal [:sub, false], h.member?(:b)
  end

  def test_an_on_demand_feature_is_still_found
    f = $LOAD_PATH.resolve_feature_path("timeout")
    assert_equal :rb, f[0]
    assert f[1].end_with?("timeout.rb"), f[1]
    out = IO.popen([RbConfig.ruby, "-e", <<~RUBY], &:read)
      a = [require("timeout"), require("timeout.rb"), defined?(Timeout).to_s]
      p a + [Ractor.new { defined?(Timeout::Error).to_s }.take]
    RUBY
    assert_equal '[true, false, "constant", "constant"]', out.strip
  end

  # Rational's and Complex's string patterns are compiled at their first use, not at boot
  def test_strings_spell_rationals_and_complexes_in_any_ractor
    parse = -> { [Rational("1/3"), "3.5e2/2".to_r, " 2 ".to_r, "x".to_r, Complex("1+2i"), "1.5".to_c, "-i".to_c, "2@0".to_c.real] }
    want = [Rational(1, 3), Rational(175), Rational(2), Rational(0), Complex(1, 2), Complex(1.5, 0), Complex(0, -1), 2]
    assert_equal want, parse.call
    r = Ractor.new do
      [Rational("1/3"), "3.5e2/2".to_r, " 2 ".to_r, "x".to_r, Complex("1+2i"), "1.5".to_c, "-i".to_c, "2@0".to_c.real]
    end
    assert_equal want, r.take
    assert_raise(ArgumentError) { Rational("1/") }
    assert_raise(ArgumentError) { Complex("1+") }
  end

  # Readers the gems define with def instead of attr_reader (made at their first call)
  def test_readers_made_at_their_first_call
    d = Dir.new(".")
    assert_equal ".", d.path
    assert_equal ".", d.to_path
    d.close
    assert_equal Signal.list["INT"], SignalException.new("INT").signo
    e = Gem::LoadError.new("x")
    e.name = "g"
    e.requirement = ">= 1"
    assert_equal ["g", ">= 1"], [e.name, e.requirement]
    loc = caller_locations(0, 1)[0]
    assert_equal [__FILE__, __LINE__ - 1], [loc.path, loc.lineno]
    assert loc.label.include?("test_readers_made_at_their_first_call"), loc.label
    assert_nil $stdout.timeout if $stdout.respond_to?(:timeout)
    r, w = IO.pipe
    pid = Process.spawn(RbConfig.ruby, "-e", "exit 3", out: w)
    w.close
    Process.wait(pid)
    assert_equal [pid, 3], [$?.pid, $?.exitstatus]
    r.close
  end

  def test_a_feature_found_by_what_it_defines
    f = $LOAD_PATH.resolve_feature_path("set")
    assert_equal :rb, f[0]
    assert f[1].end_with?("set.rb"), f[1]
    require "set"
    assert_equal false, require("set")
    assert Set.new([1]).include?(1)
  end

  # include, prepend and extend (C since mruby patch 0055): the last module first, each one's
  # *_features then its hook; they return the receiver
  def test_include_prepend_and_extend_order_and_hooks
    log = []
    a = Module.new do
      define_singleton_method(:append_features) { |c| log << [:append_features, :a]; super(c) }
      define_singleton_method(:included) { |c| log << [:included, :a] }
    end
    b = Module.new do
      define_singleton_method(:included) { |c| log << [:included, :b] }
      define_singleton_method(:extended) { |o| log << [:extended, :b] }
      define_singleton_method(:prepended) { |c| log << [:prepended, :b] }
    end
    k = Class.new
    assert_same k, k.send(:include, a, b)
    assert_equal [k, a, b], k.ancestors.take(3)
    o = Object.new
    assert_same o, o.extend(a, b)
    assert_equal [o.singleton_class, a, b], o.singleton_class.ancestors.take(3)
    k2 = Class.new
    assert_same k2, k2.prepend(a, b)
    assert_equal [a, b, k2], k2.ancestors.take(3)
    assert_equal [[:included, :b], [:append_features, :a], [:included, :a], [:extended, :b], [:prepended, :b]], log
    assert_equal(-1, Module.instance_method(:include).arity)
    assert_raise(ArgumentError) { k.send(:include) }
    e = assert_raise(TypeError) { Class.new.send(:include, Comparable, Class.new) }
    assert_equal "wrong argument type Class (expected Module)", e.message
    assert_raise(TypeError) { Object.new.extend(1) }
    assert_raise(TypeError) { Class.new.prepend(Object) }
    c = Class.new
    assert_raise(TypeError) { c.send(:include, Comparable, 1) }
    assert_equal false, c.include?(Comparable)   # checked before any is applied
  end
end
