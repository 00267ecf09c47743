# `super` from a method reached through an entry that is not where its body was defined goes on
# above the body's owner, as CRuby's: an alias (alias, alias_method) of an inherited, included or
# prepended method, `private :m` / `public :m` / `protected :m` of an inherited method (CRuby's
# ZSUPER entry), a module's method called through Method#call or bind_call. mnrb ran the parent's
# method twice ("ABB") or raised from super (NoMethodError, TypeError). Expected values are CRuby
# 3.1's and 3.3's (this file passes on both).
class AliasVisibilitySuperTest < MnTest::Case
  class A; def m = "A"; end
  class B < A; def m = super + "B"; end

  class PrivC < B; private :m; def t = m; end
  def test_private_of_an_inherited_method_runs_it_once
    assert_equal "AB", PrivC.new.t
    assert_equal [:m], PrivC.private_instance_methods(false)
    assert_raise(NoMethodError) { PrivC.new.m }
    assert_equal "AB", PrivC.new.send(:m)
  end

  class PubC < PrivC; public :m; end
  def test_public_again_below_a_private_entry
    assert_equal "AB", PubC.new.m
    assert_equal "AB", PubC.new.method(:m).call
  end

  class ProtC < B; protected :m; def t(o) = o.m; end
  def test_protected_of_an_inherited_method
    assert_equal "AB", ProtC.new.t(ProtC.new)
    assert_equal [:m], ProtC.protected_instance_methods(false)
  end

  class E; def self.s = "s"; end
  class F < E; def self.s = "F" + super; end
  class G < F; private_class_method :s; def self.t = s; end
  def test_private_class_method_of_an_inherited_class_method
    assert_equal "Fs", G.t
    assert_raise(NoMethodError) { G.s }
  end

  module P; def x = "P" + super; end
  class D; def x = "D"; prepend P; alias_method :y, :x; end
  class D2; def x = "D"; prepend P; alias y x; end
  def test_alias_of_a_prepended_modules_method
    assert_equal "PD", D.new.y
    assert_equal "PD", D2.new.y
    assert_equal "PD", D.new.x
  end

  module Q; def q = "Q" + super; end
  class QB; def q = "QB"; end
  class QC < QB; include Q; alias_method :qq, :q; end
  def test_alias_of_an_included_modules_method
    assert_equal "QQB", QC.new.qq
  end

  class S1; def s = "S1"; end
  class S2 < S1; def s = "S2" + super; end
  class S3 < S2; alias_method :t, :s; end
  class S4 < S2; alias_method :t, :s; def s = "S4"; end
  class S5 < S3; alias_method :u, :t; end
  def test_alias_of_an_inherited_method
    assert_equal "S2S1", S3.new.t
    assert_equal "S2S1", S4.new.t
    assert_equal "S2S1", S5.new.u
    assert_equal :s, S3.instance_method(:t).original_name
  end

  module M; def f = "M" + super; end
  class K0; def f = "K0"; end
  class K < K0; include M; end
  def test_method_call_of_a_modules_method_with_super
    assert_equal "MK0", K.new.method(:f).call
    assert_equal "MK0", K.instance_method(:f).bind_call(K.new)
    assert_equal "MK0", K.new.method(:f).unbind.bind(K.new).call
    assert_equal "K0", K.new.method(:f).super_method.call
  end

  # a new ractor's copies of these entries (mnrb copies definitions into it) keep their owners
  def test_in_a_ractor
    r = Ractor.new { [S3.new.t, PrivC.new.t, D.new.y, QC.new.qq] }
    assert_equal ["S2S1", "AB", "PD", "QQB"], r.take
  end
end
