# What the main ractor defined is there in a ractor created after it, whether it was defined before
# the first Ractor.new or after one (mnrb copies definitions into each new ractor's state and reuses
# the list of classes to copy while the creator's definitions are unchanged: mruby patch 0087's
# serial; a write it missed would leave a later ractor without the definition). Each test first
# creates a ractor (the list is made), then defines, then checks in a new ractor. CRuby's ractors
# share one set of classes, so every case holds there too.

module DcIncluded; def dc_inc; :inc; end; end
module DcPrepended; def dc_who; "pre-" + super; end; end
module DcExtended; def dc_ext; :ext; end; end
class DcBefore
  include DcIncluded
  prepend DcPrepended
  extend DcExtended
  def dc_who; "before"; end
  def self.dc_cm; :cm; end
  def dc_own; "own"; end
  alias dc_own_alias dc_own
  alias dc_inc_alias dc_inc             # an included module's method
end
class Integer; def dc_double; self * 2; end; end
class String; alias_method :dc_len, :length; end
DC_BEFORE_CONST = 41
def dc_top_before; :top; end

class RactorDefinitionsCacheTest < MnTest::Case
  def in_ractor(&b)
    r = Ractor.new(&b)
    r.respond_to?(:value) ? r.value : r.take
  end

  def fill
    assert_equal 1, in_ractor { 1 }
  end

  def test_defined_before_the_first_ractor
    got = in_ractor do
      o = DcBefore.new
      [o.dc_who, o.dc_own_alias, o.dc_inc_alias, o.dc_inc, DcBefore.dc_cm, DcBefore.dc_ext, 21.dc_double, "abcd".dc_len,
       DC_BEFORE_CONST, dc_top_before]
    end
    assert_equal ["pre-before", "own", :inc, :inc, :cm, :ext, 42, 4, 41, :top], got
    # twice: the second ractor is made from the kept list
    assert_equal got, in_ractor {
      o = DcBefore.new
      [o.dc_who, o.dc_own_alias, o.dc_inc_alias, o.dc_inc, DcBefore.dc_cm, DcBefore.dc_ext, 21.dc_double, "abcd".dc_len,
       DC_BEFORE_CONST, dc_top_before]
    }
  end

  def test_method_of_a_builtin_class_after
    fill
    Integer.class_eval { def dc_triple; self * 3; end }
    assert_equal 9, in_ractor { 3.dc_triple }
    Integer.class_eval { def dc_triple; self * 30; end }     # redefined
    assert_equal 90, in_ractor { 3.dc_triple }
    Integer.class_eval { remove_method :dc_triple }
    assert_equal false, in_ractor { 3.respond_to?(:dc_triple) }
  end

  def test_alias_method_of_a_builtin_c_method_after
    fill
    Array.class_eval { alias_method :dc_size, :size }
    String.class_eval { alias dc_up upcase }
    assert_equal [3, "AB"], in_ractor { [[1, 2, 3].dc_size, "ab".dc_up] }
  end

  def test_top_level_method_and_constant_after
    fill
    Object.class_eval { def dc_top_after; :after; end; private :dc_top_after }
    Object.const_set(:DC_AFTER_CONST, "frozen".freeze)
    assert_equal [:after, "frozen"], in_ractor { [dc_top_after, DC_AFTER_CONST] }
  end

  def test_class_and_module_after
    fill
    Object.class_eval <<~RUBY
      module DcLaterMod; def dc_m; :m; end; end
      class DcLater; include DcLaterMod; def dc_k; :k; end; def self.dc_s; :s; end; end
      class DcLater2 < DcLater; end
    RUBY
    assert_equal [:m, :k, :s, :k], in_ractor { [DcLater.new.dc_m, DcLater.new.dc_k, DcLater.dc_s, DcLater2.new.dc_k] }
  end

  def test_include_prepend_extend_after
    fill
    Object.class_eval <<~RUBY
      class DcPlain; def dc_v; "plain"; end; end
      module DcInc2; def dc_i; :i; end; end
      module DcPre2; def dc_v; "pre-" + super; end; end
      module DcExt2; def dc_e; :e; end; end
    RUBY
    assert_equal "plain", in_ractor { DcPlain.new.dc_v }
    DcPlain.include(DcInc2)
    assert_equal :i, in_ractor { DcPlain.new.dc_i }
    DcPlain.prepend(DcPre2)
    assert_equal "pre-plain", in_ractor { DcPlain.new.dc_v }
    DcPlain.extend(DcExt2)
    assert_equal :e, in_ractor { DcPlain.dc_e }
  end

  def test_method_added_to_a_class_after
    fill
    DcBefore.class_eval { def dc_more; :more; end }
    DcBefore.singleton_class.class_eval { def dc_cm2; :cm2; end }
    assert_equal [:more, :cm2], in_ractor { [DcBefore.new.dc_more, DcBefore.dc_cm2] }
    DcBefore.class_eval { alias_method :dc_more2, :dc_more }
    assert_equal :more, in_ractor { DcBefore.new.dc_more2 }
  end

  def test_nested_constant_and_class_after
    fill
    DcBefore.const_set(:INNER, 7)
    DcBefore.const_set(:Nested, Class.new { def dc_n; :n; end })
    assert_equal [7, :n], in_ractor { [DcBefore::INNER, DcBefore::Nested.new.dc_n] }
  end

  def test_constant_frozen_after_becomes_readable
    Object.const_set(:DC_LIST, [1, 2])
    fill
    err = in_ractor { begin; DC_LIST; :read; rescue => e; e.class; end }
    assert_equal Ractor::IsolationError, err
    DC_LIST.freeze                      # no definition written: the value is read again
    assert_equal [1, 2], in_ractor { DC_LIST }
  end

  def test_class_instance_variable_after
    Object.class_eval "class DcIvar; class << self; attr_reader :setting; end; end"
    fill
    DcIvar.instance_variable_set(:@setting, 5)
    assert_equal 5, in_ractor { DcIvar.setting }
    DcIvar.instance_variable_set(:@setting, 6)
    assert_equal 6, in_ractor { DcIvar.setting }
  end

  def test_constant_alias_of_a_builtin_class_after
    fill
    Object.const_set(:DcStr, String)
    assert_equal true, in_ractor { DcStr.equal?(String) }
  end

  def test_struct_and_constant_alias_of_a_class_after
    fill
    Object.const_set(:DcPoint, Struct.new(:x, :y))
    Object.const_set(:DcAliasOfBefore, DcBefore)
    assert_equal [3, "own"], in_ractor { [DcPoint.new(1, 2).then { |pt| pt.x + pt.y }, DcAliasOfBefore.new.dc_own] }
  end

  def test_ractors_created_by_a_ractor
    fill
    got = in_ractor do
      a = Ractor.new { 2.dc_double }
      b = Ractor.new { DcBefore.new.dc_own }
      [a, b].map { |r| r.respond_to?(:value) ? r.value : r.take }
    end
    assert_equal [4, "own"], got
  end
end
