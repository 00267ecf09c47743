# Methods the main ractor defined, reached from inside a ractor in every way that needs them
# (issue 20, helper lazy20): mnrb enters a program's methods into a new ractor's classes lazily
# (mnrb-ractor lazy_methods.c, mruby patch 0269): each is loaded into the ractor's state at its
# first lookup, so every reflection must see them as if they had been copied whole. Each test's
# classes are its own (in CRuby the ractor's changes are the one shared class's). Checked on CRuby
# 3.3.8 and 3.1.2.

module LmMod
  LM_MOD_K = :mod_k
  def lm_mod; [:mod, LM_MOD_K]; end
  def lm_chain; [:mod_chain]; end
end
module LmLater; def lm_later; :later; end; def lm_base; [:later, *super]; end; end

class LmBase
  LM_K = :base_k
  def lm_base; [:base]; end
  def lm_chain; [:base_chain, *super]; end
  def lm_kw(a, b = 2, *r, k: 3, **o, &blk); [a, b, r, k, o, blk && blk.call]; end
end

class LmReflect < LmBase
  include LmMod
  LM_K = :reflect_k
  def initialize(v = 1); @v = v; end
  def lm_v; @v; end
  def lm_base; [:reflect, *super]; end
  def lm_chain; [:reflect_chain, *super]; end
  def lm_const; LM_K; end
  def lm_raise; raise ArgumentError, "lm"; end
  def self.lm_cm; [:cm, LM_K]; end
  def self.lm_cm2; :cm2; end
  def lm_pub; lm_priv; end
  private def lm_priv; :priv; end
  protected def lm_prot; :prot; end
  def lm_cmp(o); o.lm_prot; end
end

class LmMissing
  def method_missing(name, *args); name.to_s.start_with?("lm_") ? [:missing, name, *args] : super; end
  def respond_to_missing?(name, all = false); name.to_s.start_with?("lm_") || super; end
end

class LmAlias; def lm_orig; :orig; end; def lm_other; :other; end; end
class LmRemove < LmBase; def lm_base; :removed_one; end; def lm_gone; :gone; end; end
class LmUndef; def lm_undef; :here; end; end
class LmDefine; def lm_redef; :old; end; def lm_keep; :keep; end; end
class LmMany
  300.times { |i| class_eval("def lm#{i}(s) s + #{i}.to_s end") }
end
class LmRedefined; def lm_when; :before; end; def lm_other; :other; end; end
# Classes whose tables a new ractor takes whole, read-only, from the plan of its creator (mnrb,
# helper create20: mnrb-ractor prepared_tables.c, mruby patch 0293), copied at its first write.
class LmPrepared
  class_eval((0...2000).map { |i| "def lp#{i}(x) x + #{i} end\n" }.join)
end
class LmPreparedWritten
  class_eval((0...50).map { |i| "def lw#{i}(x) x + #{i} end\n" }.join)
end
class LmInclude; def lm_base; [:include_base]; end; end
class LmIncludeSub < LmInclude; def lm_base; [:sub, *super]; end; end

class RactorLazyMethodsTest < MnTest::Case
  def in_ractor(*args, &b)
    r = Ractor.new(*args, &b)
    r.respond_to?(:value) ? r.value : r.take
  end

  def test_calls_super_and_constants
    got = in_ractor do
      o = LmReflect.new(5)
      [o.lm_v, o.lm_base, o.lm_chain, o.lm_const, o.lm_mod, LmReflect.lm_cm, o.lm_kw(1, k: 9) { :blk }]
    end
    assert_equal [5, [:reflect, :base], [:reflect_chain, :mod_chain], :reflect_k, [:mod, :mod_k], [:cm, :reflect_k],
                  [1, 2, [], 9, {}, :blk]], got
  end

  def test_reflection_without_a_call_first
    got = in_ractor do
      c = LmReflect
      [c.instance_methods(false).sort.include?(:lm_base), c.method_defined?(:lm_chain), c.public_method_defined?(:lm_pub),
       c.private_method_defined?(:lm_priv), c.protected_method_defined?(:lm_prot), c.method_defined?(:lm_priv),
       c.private_instance_methods(false).include?(:lm_priv), c.instance_method(:lm_kw).arity,
       c.instance_method(:lm_kw).parameters, c.instance_method(:lm_mod).owner, c.new.respond_to?(:lm_const),
       c.new.respond_to?(:lm_priv), c.new.respond_to?(:lm_priv, true), c.singleton_methods.sort.first(2),
       c.method(:lm_cm2).arity, LmMod.instance_methods(false).sort]
    end
    assert_equal [true, true, true, true, true, false, true, -2,
                  [[:req, :a], [:opt, :b], [:rest, :r], [:key, :k], [:keyrest, :o], [:block, :blk]], LmMod, true,
                  false, true, [:lm_cm, :lm_cm2], 0, [:lm_chain, :lm_mod]], got
  end

  def test_visibility
    got = in_ractor do
      o = LmReflect.new
      priv = begin; o.lm_priv; rescue NoMethodError => e; e.class; end
      prot = begin; o.lm_prot; rescue NoMethodError => e; e.class; end
      [o.lm_pub, o.send(:lm_priv), o.lm_cmp(LmReflect.new), priv, prot]
    end
    assert_equal [:priv, :priv, :prot, NoMethodError, NoMethodError], got
  end

  def test_method_objects_and_bind
    got = in_ractor do
      um = LmReflect.instance_method(:lm_base)
      m = LmReflect.new.method(:lm_chain)
      [um.bind_call(LmReflect.new), um.name, m.call, m.unbind.bind(LmReflect.new).call, m.owner,
       LmBase.instance_method(:lm_base).bind_call(LmReflect.new)]
    end
    assert_equal [[:reflect, :base], :lm_base, [:reflect_chain, :mod_chain], [:reflect_chain, :mod_chain], LmReflect, [:base]], got
  end

  def test_method_missing
    got = in_ractor do
      o = LmMissing.new
      [o.lm_anything(1), o.respond_to?(:lm_x), o.respond_to?(:other), (o.other rescue $!.class)]
    end
    assert_equal [[:missing, :lm_anything, 1], true, false, NoMethodError], got
  end

  def test_alias_method_of_one_never_called
    got = in_ractor do
      LmAlias.class_eval { alias_method :lm_new, :lm_orig; alias lm_new2 lm_other }
      o = LmAlias.new
      [o.lm_new, o.lm_new2, o.lm_orig, LmAlias.instance_method(:lm_new).name, LmAlias.instance_method(:lm_new).original_name]
    end
    assert_equal [:orig, :other, :orig, :lm_new, :lm_orig], got
  end

  def test_remove_and_undef
    got = in_ractor do
      LmRemove.send(:remove_method, :lm_base)
      LmRemove.send(:remove_method, :lm_gone)
      LmUndef.send(:undef_method, :lm_undef)
      o = LmRemove.new
      [o.lm_base, (o.lm_gone rescue $!.class), LmRemove.method_defined?(:lm_gone), (LmUndef.new.lm_undef rescue $!.class),
       LmUndef.method_defined?(:lm_undef), LmUndef.instance_methods(false)]
    end
    assert_equal [[:base], NoMethodError, false, NoMethodError, false, []], got
  end

  def test_define_method_on_top_of_one
    got = in_ractor do
      LmDefine.class_eval { define_method(:lm_redef) { :new } }
      LmDefine.send(:define_method, :lm_keep2, LmDefine.instance_method(:lm_keep))
      o = LmDefine.new
      [o.lm_redef, o.lm_keep2, o.lm_keep]
    end
    assert_equal [:new, :keep, :keep], got
  end

  def test_a_module_included_later_and_ancestors
    got = in_ractor do
      LmIncludeSub.include(LmLater)
      o = LmIncludeSub.new
      [o.lm_base, o.lm_later, LmIncludeSub.ancestors.take(3), LmIncludeSub.ancestors[2].instance_method(:lm_base).owner]
    end
    assert_equal [[:sub, :later, :include_base], :later, [LmIncludeSub, LmLater, LmInclude], LmInclude], got
  end

  def test_backtrace_names_the_definition
    got = in_ractor do
      begin
        LmReflect.new.lm_raise
      rescue ArgumentError => e
        [e.message, e.backtrace_locations.first.lineno, e.backtrace_locations.first.label]
      end
    end
    assert_equal "lm", got[0]
    assert_equal LmReflect.instance_method(:lm_raise).source_location[1], got[1]
    assert got[2].include?("lm_raise"), got[2]
  end

  def test_a_ractor_of_a_ractor
    got = in_ractor do
      r = Ractor.new { o = LmReflect.new(7); [o.lm_v, o.lm_base, LmReflect.lm_cm2, LmReflect.private_method_defined?(:lm_priv)] }
      r.respond_to?(:value) ? r.value : r.take
    end
    assert_equal [7, [:reflect, :base], :cm2, true], got
  end

  def test_many_ractors_at_once_call_the_same_methods
    rs = 4.times.map { |i| Ractor.new(i) { |n| 50.times.map { LmReflect.new(n).lm_v + LmReflect.new.lm_base.size }.sum } }
    got = rs.map { |r| r.respond_to?(:value) ? r.value : r.take }
    assert_equal [100, 150, 200, 250], got
  end

  # A method redefined in main after a ractor was made: the ractor's lazy entry's dump is the method
  # as it was, but the redefinition reaches it through the definitions log (definitions_log.c) at
  # its receive, as CRuby's ractors, which share the class, see it (before sem20k: :before).
  def test_redefined_in_main_after_the_ractor_was_made
    r = Ractor.new { Ractor.receive; o = LmRedefined.new; [o.lm_when, o.lm_other] }
    LmRedefined.class_eval { def lm_when; :after; end }
    r.send(:go)
    first = r.respond_to?(:value) ? r.value : r.take
    later = in_ractor { LmRedefined.new.lm_when }
    assert_equal [:after, :other], first
    assert_equal :after, later
  end

  # Two ractors (on two native threads where there are two) load the same 300 methods at once, in
  # opposite orders, collecting garbage between their first calls: each gets its own procs from the
  # one set of dumps.
  def test_two_ractors_load_the_same_methods_at_once_under_gc
    rs = [0, 1].map do |dir|
      Ractor.new(dir) do |d|
        o = LmMany.new
        order = d == 0 ? (0...300).to_a : (0...300).to_a.reverse
        out = order.map { |i| GC.start if i % 50 == 0; o.send("lm#{i}", "x") }
        [out.first, out.last, out.size, order.map { |i| o.send("lm#{i}", "y") }.uniq.size]
      end
    end
    got = rs.map { |r| r.respond_to?(:value) ? r.value : r.take }
    assert_equal [["x0", "x299", 300, 300], ["x299", "x0", 300, 300]], got
  end

  def test_gc_stress_during_the_loads
    got = in_ractor do
      GC.stress = true
      o = LmReflect.new(3)
      v = [o.lm_v, o.lm_base, o.lm_chain, LmReflect.lm_cm, o.lm_kw(1) { 2 }]
      GC.stress = false
      v
    end
    assert_equal [3, [:reflect, :base], [:reflect_chain, :mod_chain], [:cm, :reflect_k], [1, 2, [], 3, {}, 2]], got
  end

  # Its table is the plan's image until the ractor's first call of one of its methods, which makes
  # the table the ractor's own (mnrb only: Ractor.__state_tables' own method-table bytes).
  def test_a_new_ractor_takes_a_prepared_table_and_owns_it_at_a_call
    mnrb_only
    in_ractor { nil }                    # the plan's walk, which takes the images
    got = in_ractor do
      before = Ractor.__state_tables[0]
      v = LmPrepared.new.lp7(1)
      [v, Ractor.__state_tables[0] - before]
    end
    assert_equal 8, got[0]
    assert got[1] >= 2000 * 12, "the table became the ractor's own at its first call: #{got[1]} bytes"
  end

  # Writes to a class whose table is shared read-only (mnrb: a prepared table) are made on the
  # ractor's own copy, never on the shared one, and reach the other ractors as any later definition
  # does (the definitions log): the next ractor sees them as CRuby's, whose ractors share the class.
  def test_writes_to_a_prepared_table_reach_the_next_ractor
    in_ractor { nil }
    a = in_ractor do
      LmPreparedWritten.send(:remove_method, :lw1)
      LmPreparedWritten.class_eval { def lw2(x) :redefined end; undef_method :lw3; private :lw4; alias_method :lw_alias, :lw5 }
      o = LmPreparedWritten.new
      [(o.lw1(0) rescue $!.class), o.lw2(0), (o.lw3(0) rescue $!.class), (o.lw4(0) rescue $!.class), o.lw_alias(0)]
    end
    b = in_ractor do
      o = LmPreparedWritten.new
      [(o.lw1(0) rescue $!.class), o.lw2(0), (o.lw3(0) rescue $!.class), (o.lw4(0) rescue $!.class),
       o.respond_to?(:lw_alias), LmPreparedWritten.public_method_defined?(:lw4)]
    end
    assert_equal [NoMethodError, :redefined, NoMethodError, NoMethodError, 5], a
    assert_equal [NoMethodError, :redefined, NoMethodError, NoMethodError, true, false], b
  end

  # The names of a prepared table are the ractor's symbols like any other (mnrb: a layer of names
  # shared by the ractors made alike, mruby patch 0293).
  def test_names_of_a_prepared_table_are_symbols_as_any
    in_ractor { nil }
    got = in_ractor do
      n = "lp1999"
      [LmPrepared.method_defined?(n), n.to_sym.equal?(:lp1999), :lp1999.to_s, LmPrepared.instance_method(n.to_sym).name,
       LmPrepared.instance_methods(false).size, LmPrepared.new.public_send(n, 1), Symbol.all_symbols.include?(:lp1998),
       :lp1997.inspect, %i[lp1 lp22].map(&:size), LmPrepared.instance_methods(false).include?(:"lp#{1000 + 996}")]
    end
    assert_equal [true, true, "lp1999", :lp1999, 2000, 2000, true, ":lp1997", [3, 4], true], got
  end

  # A ractor's own Ractor.new passes on the records of the copied methods it never called (mnrb:
  # before, it made each of them there and dumped it again), and its later ractors take a prepared
  # table as the main ractor's do (mnrb only: procs counted, Ractor.__state_tables).
  def test_a_ractor_of_a_ractor_passes_the_records_on
    mnrb_only
    in_ractor { nil }
    got = in_ractor do
      procs = ObjectSpace.count_objects[:T_PROC]
      runs = 2.times.map do
        r = Ractor.new { before = Ractor.__state_tables[0]; v = LmPrepared.new.lp9(1); [v, Ractor.__state_tables[0] - before] }
        r.respond_to?(:value) ? r.value : r.take
      end
      [runs, ObjectSpace.count_objects[:T_PROC] - procs]
    end
    assert_equal [10, 10], got[0].map(&:first)
    assert got[0][1][1] >= 2000 * 12, "the second ractor's table was the image: #{got[0][1][1]} bytes"
    assert got[1] < 500, "procs made in the creating ractor: #{got[1]}"
  end
end
