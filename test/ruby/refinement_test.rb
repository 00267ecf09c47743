# Refinements as CRuby's (checked on CRuby 3.3.8 and 3.1; a check that needs 3.2+ says so):
# Module#refine, Refinement#target/import_methods, Module#refinements, Module.used_modules,
# main.using and Module#using with CRuby's errors; lexical activation: the rest of the file or
# of the module body, with the blocks, methods and class bodies written there; not other files
# or methods defined before `using` or elsewhere; super from a refined method; refinements of a
# module and of an ancestor; stacking; send/__send__/public_send, Symbol blocks, respond_to? and
# Kernel#method at a refined site. Where mnrb differs (docs/DESIGN.md, "Refinements"), the
# difference is tested as mnrb's behaviour.

require_relative "fixtures/refinement_other_file"

module RefineShout
  refine String do
    def shout = upcase + "!"
    def twice = shout * 2                 # another refined method: the refine block is refined
    def length = super * 10               # super: String's own length
    def mine = :refined                   # a refined method the class also defines (below)
  end
end

class String
  def mine = :own
end

module RefineObject
  refine Object do
    def hi = :obj_hi
    def greeting = :object
  end
end

class String
  def greeting = :string                  # the class's own method beats a refined ancestor's
end

module RefineEnum
  refine Enumerable do
    def tally_twice = tally.transform_values { _1 * 2 }
    def first = :refined_first            # Array/Range define first: their own wins
    def min = [:emin, super]              # super: Enumerable's own min
  end
end

module StackA
  refine(String) { def who = :a }
end
module StackB
  refine(String) { def who = :b }
end

module RefineInteger
  refine Integer do
    def +(other) = :refined_plus
    def double = self * 2
  end
end

class RefinedFoo
  def self.make = :made
  def hi(a, k: 1) = [:foo_hi, a, k]
end

module RefineFoo
  refine(RefinedFoo.singleton_class) { def make = [:refined, super] }
  refine RefinedFoo do
    def hi(a, k: 2) = [:ref, super(a, k: k)]
    def each_twice = yield(1) + yield(2)
    private def secret = :secret
    def uses_secret = secret
  end
end

def before_using(s) = (s.shout rescue :unrefined)

def before_respond(s) = s.respond_to?(:shout)

using RefineShout

def after_using(s) = s.shout

module LaterBody
  def self.shout(s) = s.shout             # a module body after the using: refined too
end

using RefineObject
using RefineEnum
using StackA
using StackB
using RefineInteger
using RefineFoo

class DefinedAfterUsing
  define_method(:dm) { RefinedFoo.make }
  def mm = [1].map { RefinedFoo.new.hi(0) }
end

class ScopedUse
  module Inner
    refine(Integer) { def scoped = :scoped }
  end
  using Inner
  def self.call(n) = n.scoped
  USED = Module.used_modules
end
SCOPED_AFTER = (3.scoped rescue :unrefined)

MAIN = self
# a Ractor's block after the usings is refined, and so are the methods it calls that were defined
# after them (refined methods calling each other too); one defined before is not
RACTOR_RESULT = Ractor.new do
  [("r".shout rescue :unrefined), ("r".twice rescue :unrefined), (after_using("m") rescue :unrefined),
   ([1].map { 3.double } rescue :unrefined), before_using("b"), (RefinedFoo.new.uses_secret rescue :unrefined)]
end.take
USING_CLASS_ERROR = begin
  class UsingClassArg
    using String
  end
rescue TypeError => e
  e.message
end
USING_NOT_SELF_ERROR = begin
  Module.new.send(:using, RefineShout)
rescue RuntimeError => e
  e.message
end

class RefinementTest < MnTest::Case
  def test_refined_method_after_using
    assert_equal "AB!", "ab".shout
  end

  def test_refined_method_calls_another_refined_method
    assert_equal "AB!AB!", "ab".twice
  end

  def test_super_in_refined_method_calls_the_class_method
    assert_equal 20, "ab".length
  end

  def test_refinement_beats_the_class_own_method
    assert_equal :refined, "x".mine
  end

  def test_method_defined_before_using_is_not_refined
    assert_equal :unrefined, before_using("x")
    assert_equal false, before_respond("x")
  end

  def test_method_defined_after_using_is_refined
    assert_equal "X!", after_using("x")
    assert_equal "Y!", LaterBody.shout("y")
  end

  def test_other_file_is_not_refined_even_when_called_from_here
    assert_raise(NoMethodError) { RefinementOtherFile.shout("x") }
    assert_equal false, RefinementOtherFile.respond("x")
  end

  def test_block_from_refined_scope_called_from_other_file
    assert_equal "Z!", RefinementOtherFile.caller_of("z") { |s| s.shout }
  end

  def test_blocks_in_refined_scope
    assert_equal ["A!", "B!"], %w[a b].map { |s| s.shout }
  end

  def test_refining_object_reaches_strings_and_integers
    assert_equal [:obj_hi, :obj_hi], ["s".hi, 1.hi]
  end

  def test_class_own_method_beats_refined_ancestor
    assert_equal :string, "s".greeting
    assert_equal :object, 1.greeting
  end

  def test_refining_a_module
    assert_equal({1 => 2, 2 => 4}, [1, 2, 2].tally_twice)
    assert_equal 1, [1, 2].first
    assert_equal 1, (1..3).first
  end

  def test_refining_a_singleton_class
    assert_equal [:refined, :made], RefinedFoo.make
  end

  def test_keywords_and_super_with_keywords
    assert_equal [:ref, [:foo_hi, 1, 2]], RefinedFoo.new.hi(1)
    assert_equal [:ref, [:foo_hi, 1, 5]], RefinedFoo.new.hi(1, k: 5)
    assert_equal [:ref, [:foo_hi, 1, 6]], RefinedFoo.new.send(:hi, 1, k: 6)
  end

  def test_refined_method_yields
    assert_equal 30, RefinedFoo.new.each_twice { _1 * 10 }
  end

  def test_private_refined_method
    assert_raise(NoMethodError) { RefinedFoo.new.secret }
    assert_equal :secret, RefinedFoo.new.uses_secret
  end

  def test_super_from_refined_module_method
    assert_equal [:emin, 1], Struct.new(:a, :b).new(3, 1).min
  end

  def test_define_method_block_and_nested_block
    assert_equal [:refined, :made], DefinedAfterUsing.new.dm
    assert_equal [[:ref, [:foo_hi, 0, 2]]], DefinedAfterUsing.new.mm
  end

  def test_method_object_of_refined_method_calls_super
    assert_equal [:ref, [:foo_hi, 3, 2]], RefinedFoo.new.method(:hi).call(3)
  end

  def test_later_using_wins
    assert_equal :b, "x".who
  end

  def test_send_family_sees_refinements
    assert_equal ["X!", "X!", "X!"], ["x".send(:shout), "x".__send__(:shout), "x".public_send(:shout)]
    assert_equal :refined_plus, 1.send(:+, 2)
  end

  def test_symbol_block_sees_refinements
    assert_equal ["A!", "B!"], %w[a b].map(&:shout)
    assert_equal [2, 4], [1, 2].map(&:double)
  end

  def test_respond_to_and_method_see_refinements
    assert_equal true, "x".respond_to?(:shout)
    assert_equal "X!", "x".method(:shout).call
  end

  def test_module_using_is_lexical_to_the_body
    assert_equal :scoped, ScopedUse.call(1)
    assert_equal :unrefined, SCOPED_AFTER
    assert_equal [ScopedUse::Inner], ScopedUse::USED.select { _1 == ScopedUse::Inner }
  end

  def test_used_modules_order
    # CRuby's order: refined classes in order of first activation, each one's latest first
    assert_equal [StackB, StackA, RefineShout, RefineObject, RefineEnum, RefineInteger, RefineFoo],
                 Module.used_modules
  end

  def test_refine_returns_a_refinement
    r = RefineShout.send(:refine, String) {}
    assert_equal Refinement, r.class
    assert_equal Module, Refinement.superclass
    assert_equal "#<refinement:String@RefineShout>", r.inspect
    assert_equal [:length, :mine, :shout, :twice], r.instance_methods(false).sort
  end

  def test_refinement_target_and_refinements
    skip "Refinement#target and Module#refinements are 3.2+" if RUBY_VERSION < "3.2"
    r = RefineShout.refinements
    assert_equal 1, r.size
    assert_equal String, r[0].target
    assert_equal [Enumerable], RefineEnum.refinements.map(&:target)
    assert_equal [], Module.new.refinements
  end

  def test_import_methods
    skip "Refinement#import_methods is 3.1+" if RUBY_VERSION < "3.1"
    imp = Module.new { def imp = "imp:#{self}" }
    m = Module.new { refine(String) { import_methods imp } }
    assert_equal [:imp], m.refinements[0].instance_methods(false) if RUBY_VERSION >= "3.2"
    assert_raise(NoMethodError) { "q".imp }
  end

  def test_refine_is_private
    assert_raise(NoMethodError) { RefineShout.refine(String) {} }
  end

  def test_refine_argument_errors
    e = assert_raise(TypeError) { Module.new { refine(3) {} } }
    assert_equal "wrong argument type Integer (expected Class or Module)", e.message
    e = assert_raise(ArgumentError) { Module.new { refine(String) } }
    assert_equal "no block given", e.message
  end

  def test_class_has_no_refine
    assert_raise(NoMethodError) { Class.new { refine(String) {} } }
  end

  def test_using_argument_errors
    assert_equal "wrong argument type Class (expected Module)", USING_CLASS_ERROR
  end

  def test_main_using_only_at_toplevel
    main = MAIN
    e = assert_raise(RuntimeError) { main.send(:using, RefineShout) }
    assert_equal "main.using is permitted only at toplevel", e.message
  end

  class UsingInMethod
    def self.try = using(RefineShout)
  end

  def test_module_using_not_in_methods
    e = assert_raise(RuntimeError) { UsingInMethod.try }
    assert_equal "Module#using is not permitted in methods", e.message
  end

  def test_module_using_not_called_on_self
    assert_equal "Module#using is not called on self", USING_NOT_SELF_ERROR
    e = assert_raise(RuntimeError) { Module.new.send(:using, RefineShout) }   # from a method
    assert_equal "Module#using is not permitted in methods", e.message
  end

  # mnrb differs (docs/DESIGN.md): operators compiled to their own instructions and code compiled
  # by eval are not refined
  def test_mnrb_operator_instructions_not_refined
    expected = mnrb? ? 3 : :refined_plus
    assert_equal expected, 1 + 2
  end

  # mnrb's ractor runs a copy of the code: its refinements are made again there (sem20j; before,
  # the copy ran unrefined)
  def test_a_ractor_block_after_using_is_refined
    assert_equal ["R!", "R!R!", "M!", [6], :unrefined, :secret], RACTOR_RESULT
  end

  def test_mnrb_eval_string_not_refined
    expected = mnrb? ? :unrefined : "E!"
    assert_equal expected, (eval("'e'.shout") rescue :unrefined)
  end
end
