# A large shareable constant beside a program's own const_missing (issue 20; see
# ractor_lazy_constants_semantics_test.rb): a ractor finds the constant, and const_missing answers
# only names that exist nowhere. mnrb copies large constants when first named, through the ractor's
# Module#const_missing, which a program's own would shadow: such a program gets them all at
# Ractor.new (definitions.c). Its own file: the const_missing below changes how the whole program's
# constants are copied. Checked on CRuby 3.3.8 and 3.1.2.
BIG_STRINGS = Array.new(600) { |i| "str#{i}".freeze }.freeze

class LazyMissing
  def self.const_missing(name) = :from_const_missing
  def self.big_size = BIG_STRINGS.size          # found in Object: const_missing is not asked
  def self.absent = NOT_THERE_AT_ALL
end

class RactorLazyConstantsMissingSemanticsTest < MnTest::Case
  def test_beside_a_const_missing_of_the_program
    r = Ractor.new { [LazyMissing.big_size, LazyMissing.absent, LazyMissing::ALSO_ABSENT, BIG_STRINGS.last] }
    assert_equal [600, :from_const_missing, :from_const_missing, "str599"], r.take
  end
end
