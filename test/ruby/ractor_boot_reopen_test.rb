# `class X` and `module M` reopening a defined name (issue 20, helper boot20e; mruby patch 0165: the
# name is looked up once, in the outer class's own table, with the old two lookups for a constant
# found elsewhere): the reopened class is the defined one, with its methods and superclass; a name
# that is not a class or module, a module reopened as a class (and back), a superclass mismatch raise
# TypeError; a prepended class, a class inside a module, a name found through Object's ancestors
# (Kernel) reopen as before; a name defined in a superclass's table only makes a new class. Each in the main ractor and in a ractor (whose boot reopens ~200 of the
# built-in classes this way).

class RactorBootReopenTest < MnTest::Case
  def value_of(r)
    r.respond_to?(:value) ? r.value : r.take
  end

  CHECK = <<~'RUBY'
    out = []
    class String; def __reopen_s; :s; end; end
    module Enumerable; def __reopen_e; :e; end; end
    out << "".__reopen_s << [].__reopen_e
    module ReopenOuter; class Inner; def a; 1; end; end; module Mod; end; end
    module ReopenOuter; class Inner; def b; 2; end; end; module Mod; def self.m; 4; end; end; end
    class ReopenOuter::Inner; def c; 3; end; end
    out << ReopenOuter::Inner.instance_methods(false).sort << ReopenOuter::Mod.m
    class ReopenSub < String; end
    class ReopenSub < String; def d; 5; end; end
    class ReopenSub; def e; 6; end; end
    out << ReopenSub.superclass << ReopenSub.new.d + ReopenSub.new.e
    class ReopenPre; def z; 1; end; end
    module ReopenPreMod; def z; super + 10; end; end
    class ReopenPre; prepend ReopenPreMod; end
    class ReopenPre; def y; 5; end; end    # its table is skipped by const_get: the old two lookups
    out << ReopenPre.new.z << ReopenPre.new.y << ReopenPre.ancestors.take(2)
    module Kernel; class ReopenInKernel; def k; 7; end; end; end
    class ReopenInKernel; def k2; 8; end; end   # found in Object's ancestors (3.1 and 3.3 differ on where)
    out << ReopenInKernel.new.k2
    class ReopenBase; class Nested; def base; 1; end; end; end
    class ReopenDerived < ReopenBase; class Nested; def derived; 2; end; end; end   # a new class: only
    out << ReopenDerived::Nested.equal?(ReopenBase::Nested) << ReopenBase::Nested.instance_methods(false)  # the outer's own table counts
    ReopenNot = 1 unless defined?(ReopenNot)
    errors = [
      -> { class ReopenNot; end },
      -> { module ReopenNot; end },
      -> { class ReopenOuter::Mod; end },
      -> { module ReopenSub; end },
      -> { class ReopenSub < Array; end },
    ].map { |f| begin; f.call; :none; rescue TypeError => e; e.message.lines.first.chomp; end }
    out << errors[0].class << errors[1].class << errors[2..]
    out
  RUBY


  def check(out)
    assert_equal [:s, :e, [:a, :b, :c], 4, String, 11, 11, 5], out[0, 8]
    assert_equal ["ReopenPreMod", "ReopenPre"], out[8].map(&:name)
    assert_equal 8, out[9]
    assert_equal [false, [:base]], [out[10], out[11]]
    assert_equal [String, String], [out[12], out[13]]   # "ReopenNot is not a class" (mnrb: "1 is ...")
    assert out[14][0].end_with?("Mod is not a class"), out[14][0]   # CRuby: "Mod ...", mnrb: "ReopenOuter::Mod ..."
    assert_equal "ReopenSub is not a module", out[14][1]
    assert_equal "superclass mismatch for class ReopenSub", out[14][2]
  end

  def test_reopen_in_main
    check(Object.class_eval(CHECK))
  end

  def test_reopen_in_ractors
    2.times { check(value_of(Ractor.new(CHECK) { |code| Object.class_eval(code) })) }
  end
end
