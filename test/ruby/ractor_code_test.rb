# Code a ractor can use: what was defined before Ractor.new (CRuby: methods, classes, modules and
# shareable constants are usable from every ractor). mnrb copies these definitions into the new
# ractor's heap; definitions made after it started are not seen there (mnrb-only test below).

def ractor_code_fib(n)
  n < 2 ? n : ractor_code_fib(n - 1) + ractor_code_fib(n - 2)
end

module RactorCodeGreeting
  def greet
    "hello #{name}"
  end
end

class RactorCodeAnimal
  include RactorCodeGreeting
  include Comparable
  attr_accessor :name, :legs
  LIMBS = 4

  def initialize(name, legs = LIMBS)
    @name = name
    @legs = legs
  end

  def <=>(other)
    legs <=> other.legs
  end

  def self.create(name)
    new(name)
  end
end

class RactorCodeBird < RactorCodeAnimal
  def initialize(name)
    super(name, 2)
  end

  def greet
    super + " (tweet)"
  end
end

module RactorCodeOuter
  class Inner
    def where
      "inner"
    end
  end
  SETTINGS = Ractor.make_shareable({ depth: 3, name: "outer" })
end

class Integer
  def ractor_code_double
    self * 2
  end
end

RACTOR_CODE_N = 20
RACTOR_CODE_FROZEN = %w[a b].map(&:freeze).freeze

# A class whose method starts a ractor that defines a method (MnTest::Case's method_added hook
# reads class-level state, which CRuby refuses in a non-main ractor).
class RactorCodeDefs
  def self.start
    Ractor.new do
      def ractor_defined_here = 1
      [RactorCodeDefs.method_defined?(:ractor_defined_here), Ractor.method_defined?(:ractor_defined_here)]
    end
  end
end

class RactorCodeTest < MnTest::Case
  def test_top_level_method
    assert_equal 6765, Ractor.new { ractor_code_fib(RACTOR_CODE_N) }.take
  end

  def test_class_with_module_accessors_and_super
    r = Ractor.new do
      b = RactorCodeBird.new("tweety")
      b.legs = 3
      [b.greet, b.legs, b.is_a?(RactorCodeGreeting), b.is_a?(RactorCodeAnimal), b.class.name]
    end
    assert_equal ["hello tweety (tweet)", 3, true, true, "RactorCodeBird"], r.take
  end

  def test_class_methods_and_included_core_module
    r = Ractor.new do
      a = RactorCodeAnimal.create("cat")
      b = RactorCodeBird.new("owl")
      [a.legs, a > b, [a, b].min.name]
    end
    assert_equal [4, true, "owl"], r.take
  end

  def test_nested_class_and_frozen_constants
    r = Ractor.new do
      [RactorCodeOuter::Inner.new.where, RactorCodeOuter::SETTINGS[:name], RactorCodeAnimal::LIMBS, RACTOR_CODE_FROZEN]
    end
    assert_equal ["inner", "outer", 4, %w[a b]], r.take
  end

  def test_methods_added_to_core_classes
    assert_equal 42, Ractor.new { 21.ractor_code_double }.take
  end

  # CRuby's ractors share one class table: the creator sees it once it took the value (mnrb: the
  # definitions log, applied at the take; before sem20k it stayed in the ractor)
  def test_method_defined_inside_a_ractor_reaches_the_creator
    assert_equal [true, false], RactorCodeDefs.start.take
    assert RactorCodeDefs.method_defined?(:ractor_defined_here)
  end

  # `def` in the block defines in the class around Ractor.new (self is the ractor), as CRuby.
  def test_def_in_the_block_defines_in_the_class_around_it
    assert_equal [true, false], RactorCodeDefs.start.take
  end

  LIMIT = 7
  BIRD = RactorCodeBird

  def test_constants_of_the_class_around_ractor_new_and_class_aliases
    assert_equal [7, true], Ractor.new { [LIMIT, BIRD == RactorCodeBird] }.take
  end

  def test_break_in_the_block_is_a_local_jump_error
    e = assert_raise(Ractor::RemoteError) { Ractor.new { break 3 }.take }
    assert_kind_of LocalJumpError, e.cause
    assert_equal 10, Ractor.new { [1, 2].each { |x| break x * 10 } }.take
  end

  def test_return_in_the_block_is_a_local_jump_error
    e = assert_raise(Ractor::RemoteError) { Ractor.new { return 3 }.take }
    assert_kind_of LocalJumpError, e.cause
    assert_equal "unexpected return", e.cause.message
    assert_equal 4, Ractor.new { helper = ->(x) { return x * 2 }; helper.(2) }.take
  end

  def test_later_definitions_are_not_seen_by_a_running_ractor
    mnrb_only   # CRuby's ractors share one class table and do see them
    r = Ractor.new { Ractor.receive; Object.const_defined?(:RactorCodeLater) }
    Object.const_set(:RactorCodeLater, 1)
    r << :go
    assert_equal false, r.take
    assert_equal 1, Ractor.new { RactorCodeLater }.take
  end
end

class RactorCodeDefineMethod
  define_method(:twice) { |x| x * 2 }
  [:a].each { |n| define_method("get_#{n}") { n } }
  @@count = 5
  LABEL = "label".freeze
  def self.count = @@count
  def self.label = LABEL
  class << self
    def label_again = LABEL
  end
end

class RactorCodeSingletonTest < MnTest::Case
  def test_singleton_methods_see_the_class_constants
    assert_equal ["label", "label"], Ractor.new { [RactorCodeDefineMethod.label, RactorCodeDefineMethod.label_again] }.take
  end

  # A class variable is not read from a non-main ractor, even one holding a shareable value (CRuby
  # 3.x and 4.0).
  def test_a_shareable_class_variable_is_refused
    e = remote_cause(Ractor.new { RactorCodeDefineMethod.count })
    assert_kind_of Ractor::IsolationError, e
    assert_equal 5, RactorCodeDefineMethod.count
  end

  def test_define_method_with_outer_variables_raises_as_cruby
    e = remote_cause(Ractor.new { RactorCodeDefineMethod.new.get_a })
    assert_kind_of RuntimeError, e
    assert_equal "defined with an un-shareable Proc in a different Ractor", e.message
  end

  def test_define_method_without_outer_variables_works
    mnrb_only   # CRuby 3.1 refuses every define_method block made in another ractor
    assert_equal 8, Ractor.new { RactorCodeDefineMethod.new.twice(4) }.take
  end
end
