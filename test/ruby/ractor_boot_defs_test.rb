# What helper boot20d's shortcuts in a state's boot must keep as CRuby has it (issue 20, ractor
# creation; mruby patches 0140 and 0141):
# - 0140: the GC skips a method table that was never flagged as holding a proc of its state, so
#   every way a proc gets into a table (def, define_method with a closure, alias of a made method,
#   attr_accessor, a built-in Ruby method made at its first call, redefining a built-in C method)
#   must keep its proc alive through collections, in the main ractor and in ractors;
# - 0140: the frozen test of a definition is inline: defining into a frozen class, module or a
#   frozen object's singleton class raises FrozenError;
# - 0141: the ivar tables of a boot's classes (class names, constants, class-level instance
#   variables) are made at the first boot's final sizes: a ractor's classes have the same
#   constants and names as main's, and can still grow them.

class RactorBootDefsTest < MnTest::Case
  def value_of(r)
    r.respond_to?(:value) ? r.value : r.take
  end

  # every path that puts a proc into a table; each method returns a string made at definition time
  # that only the method's proc (its closure) keeps alive, checked after collections
  CHECK = <<~'RUBY'
    c = lambda do                          # tag is this lambda's: after it, only the closures hold it
      tag = "closure-" + "value"
      k = Class.new do
        alias_method :inspect2, :inspect     # a C function first: the table is not flagged by it
        def plain; "plain-" + "def"; end
        define_method(:closure) { tag }
        attr_accessor :acc
        alias_method :plain2, :plain
      end
      String.class_eval do                 # a shared table (0077): copied at the alias's put
        alias_method :__boot_defs_upcase, :upcase
        define_method(:__boot_defs_closure) { tag + "!" }
      end
      Integer.class_eval { def __boot_defs_plain; "int-" + "plain"; end }
      k
    end.call
    3.clamp(1, 2)                          # a built-in Ruby method, made at its first call
    Array.class_eval { alias_method :__boot_defs_each_slice, :each_slice }
    5.times { GC.start; Array.new(2000) { |i| "garbage#{i}" } }
    o = c.new
    o.acc = [1, 2]
    GC.start
    [o.plain, o.closure, o.plain2, o.acc, "x".__boot_defs_closure, 7.__boot_defs_plain,
     5.clamp(1, 3), [1, 2, 3].__boot_defs_each_slice(2).to_a]
  RUBY

  EXPECTED = ["plain-def", "closure-value", "plain-def", [1, 2], "closure-value!", "int-plain",
              3, [[1, 2], [3]]]

  def test_procs_put_into_tables_survive_collections_in_main
    assert_equal EXPECTED, eval(CHECK)
  end

  def test_procs_put_into_tables_survive_collections_in_ractors
    # one after another: in CRuby a method defined with a closure is callable by its ractor only
    3.times { assert_equal EXPECTED, value_of(Ractor.new(CHECK) { |code| eval(code) }) }
  end

  def test_redefined_builtin_c_method_keeps_its_proc_under_gc_stress_in_a_ractor
    r = Ractor.new do
      suffix = "-" + "mine"
      Integer.class_eval { define_method(:pred) { "int" + suffix } }
      GC.stress = true
      v = 3.times.map { |i| i.pred }
      GC.stress = false
      v
    end
    assert_equal ["int-mine"] * 3, value_of(r)
  end

  # Each definition into a frozen receiver, named by what it defines into;
  # a module method so that a ractor's block can call it too.
  module FrozenDefinitions
    def self.raising(name)
      yield
      nil
    rescue FrozenError
      name
    end

    def self.errors
      [raising(:class) { Class.new.freeze.define_method(:x) {} },
       raising(:module) { Module.new.freeze.send(:define_method, :x) {} },
       raising(:singleton) { Object.new.freeze.define_singleton_method(:x) {} },
       raising(:def_singleton) { s = Object.new.freeze; def s.y; end }].compact
    end
  end

  FROZEN = [:class, :module, :singleton, :def_singleton]

  def test_defining_into_frozen_classes_raises_frozen_error
    assert_equal FROZEN, FrozenDefinitions.errors
  end

  def test_defining_into_frozen_classes_raises_frozen_error_in_a_ractor
    r = Ractor.new { FrozenDefinitions.errors }
    assert_equal FROZEN, value_of(r)
  end

  # what a boot's class ivar tables hold: names, constants, nested names
  def self.class_facts
    mods = [Math, File, File::Constants, Process, Errno, Float, Integer, Comparable, Kernel,
            IO, Struct, Encoding, Regexp, Exception, Errno::ENOENT]
    mods.map { |m| [m.name, m.constants.sort.size] } +
      [[Math::PI.round(5), Float::INFINITY.infinite?, File::SEPARATOR, Errno::ENOENT.name]]
  end

  def test_a_ractors_builtin_classes_have_mains_constants_and_names
    main = RactorBootDefsTest.class_facts
    rs = 3.times.map do
      Ractor.new do
        mods = [Math, File, File::Constants, Process, Errno, Float, Integer, Comparable,
                Kernel, IO, Struct, Encoding, Regexp, Exception, Errno::ENOENT]
        mods.map { |m| [m.name, m.constants.sort.size] } +
          [[Math::PI.round(5), Float::INFINITY.infinite?, File::SEPARATOR, Errno::ENOENT.name]]
      end
    end
    rs.each { |r| assert_equal main, value_of(r) }
  end

  def test_a_ractors_builtin_class_tables_grow_past_the_boot_size
    r = Ractor.new do
      60.times { |i| Math.const_set(:"BOOT_DEFS_#{i}", i) }
      60.times { |i| Comparable.const_set(:"BOOT_DEFS_#{i}", i * 2) }
      Object.const_set(:BootDefsTop, 5)
      GC.start
      [Math::BOOT_DEFS_59, Math.constants.grep(/BOOT_DEFS/).size,
       Comparable::BOOT_DEFS_59, Comparable.constants.grep(/BOOT_DEFS/).size,
       BootDefsTop, Math.sqrt(16)]
    end
    assert_equal [59, 60, 118, 60, 5, 4.0], value_of(r)
  end
end
