# What a ractor's boot skips still behaves as CRuby (issue 20, ractor creation; mruby patches 0085
# and 0086). Each mnrb ractor is an mrb_state that boots every gem: its method tables are made at the
# size the first boot ended with (0085), the method_added / singleton_method_added / inherited hooks
# are looked up only once some code defined one (0085), and nothing is put in the method cache
# while the gems boot (0086). These tests check the hooks run whenever CRuby runs them (defined in
# the main ractor, in a ractor, through a module, on a singleton) and that a ractor's built-in
# classes have the same methods as the main ractor's.

class RactorBootTest < MnTest::Case
  def value_of(r)
    r.respond_to?(:value) ? r.value : r.take
  end

  def test_method_added_defined_in_a_ractor_runs_for_def_alias_and_define_method
    r = Ractor.new do
      seen = []
      c = Class.new do
        define_singleton_method(:method_added) { |m| seen << m }
        def a; end
        alias_method :b, :a
        define_method(:c) {}
        alias d a
      end
      seen
    end
    assert_equal [:a, :b, :c, :d], value_of(r)
  end

  def test_singleton_method_added_defined_in_a_ractor_runs
    r = Ractor.new do
      seen = []
      o = Object.new
      o.define_singleton_method(:singleton_method_added) { |m| seen << m }
      def o.x; end
      o.define_singleton_method(:y) {}
      seen
    end
    assert_equal [:singleton_method_added, :x, :y], value_of(r)
  end

  def test_inherited_defined_in_a_ractor_runs_for_class_keyword_and_class_new
    r = Ractor.new do
      seen = []
      base = Class.new
      base.define_singleton_method(:inherited) { |sub| seen << sub.superclass.equal?(base) }
      sub = Class.new(base)
      Class.new(sub)        # the hook is inherited by sub's singleton class
      seen
    end
    assert_equal [true, false], value_of(r)
  end

  def test_a_hook_in_a_module_runs_for_its_includers_in_a_ractor
    r = Ractor.new do
      log = []
      m = Module.new do
        define_method(:method_added) { |name| log << name }
      end
      Class.new do
        extend m
        def z; end
      end
      log
    end
    assert_equal [:z], value_of(r)
  end

  # Ractor.new copies the main ractor's definitions into the new state: a hook defined in main
  # before it runs there too (the hooks log into the running thread's locals).
  def test_a_hook_defined_in_main_runs_in_a_later_ractor
    out = IO.popen([RbConfig.ruby, "-e", <<~'RUBY'], &:read)
      class HookedBase
        def self.inherited(sub) = (Thread.current[:log] ||= []) << :inherited
        def self.method_added(m) = (Thread.current[:log] ||= []) << m
      end
      r = Ractor.new do
        Class.new(HookedBase) { def q; end }
        Thread.current[:log]
      end
      p(r.respond_to?(:value) ? r.value : r.take)
    RUBY
    assert_equal "[:inherited, :q]\n", out
  end

  def test_main_hooks_still_run
    seen = []
    c = Class.new
    c.define_singleton_method(:method_added) { |m| seen << m }
    c.class_eval { def w; end }
    assert_equal [:w], seen
  end

  # The tables a ractor boots (made at a size hint) hold what the main ractor's hold.
  def test_a_ractors_built_in_classes_have_the_main_ractors_methods
    classes = [String, Array, Hash, Integer, Float, Kernel, Comparable, Enumerable, IO, File, Process, Range, Symbol, Time, Struct]
    mine = classes.map { |c| [c.instance_methods(false).size, c.singleton_methods.size] }
    r = Ractor.new(classes.map(&:name)) do |names|
      names.map { |n| c = Object.const_get(n); [c.instance_methods(false).size, c.singleton_methods.size] }
    end
    assert_equal mine, value_of(r)
  end

  # Many ractors booted one after another and at once give the same tables and run the same code.
  def test_many_ractors_boot_alike
    rs = 8.times.map { |i| Ractor.new(i) { |k| [String.instance_methods.size, "ab".succ, [3, 1].sort, k.to_s(2)] } }
    vals = rs.map { |r| value_of(r) }
    vals.each_with_index do |v, i|
      assert_equal [String.instance_methods.size, "ac", [1, 3], i.to_s(2)], v
    end
  end
end
