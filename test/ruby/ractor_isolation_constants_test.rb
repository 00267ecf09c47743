# Issue 20, isolation: a constant holding an unshareable object, read by a non-main ractor from a
# method of a module or class defined before the ractor, raises Ractor::IsolationError naming the
# constant where it is defined: "can not access non-shareable objects in constant Object::STR by
# non-main Ractor." for a top-level one (CRuby 4.0; bootstraptest/test_ractor.rb "The correct
# constant path shall be reported": CRuby 3.1 and 3.3 named the module instead, "M::STR", a path
# later fixed; this file checks that form on them). A module's own constant read by a bare name is
# CRuby's lower-case "by non-main ractor."; `M::STR` (scoped: a module does not look at the top
# level) is a NameError, and a shareable constant is read as usual (CRuby 3.1 and 3.3 agree).
STR_FOR_RACTORS = +"s"
FROZEN_FOR_RACTORS = "f".freeze
module RactorConstantsM
  LIST = [1]
  def self.str = STR_FOR_RACTORS
  def self.in_block = [1].map { STR_FOR_RACTORS }.first
  def self.list = LIST
  def self.frozen = FROZEN_FOR_RACTORS
  def self.scoped = RactorConstantsM::STR_FOR_RACTORS
end
class RactorConstantsK
  def self.str = STR_FOR_RACTORS
end

class RactorIsolationConstantsTest < MnTest::Case
  FIXED_PATH = Object.const_defined?(:MNRB_VERSION) || RUBY_VERSION >= "3.4"

  def in_ractor(&blk)
    r = Ractor.new(&blk)
    Ractor.method_defined?(:value) ? r.value : r.take
  end

  def message(path) = "can not access non-shareable objects in constant #{path} by non-main Ractor."

  def test_a_top_level_constant_read_from_a_module_s_method
    got = in_ractor do
      [RactorConstantsM.method(:str), RactorConstantsM.method(:in_block)].map do |m|
        m.call
      rescue Ractor::IsolationError => e
        e.message
      end
    end
    where = FIXED_PATH ? "Object" : "RactorConstantsM"
    assert_equal [message("#{where}::STR_FOR_RACTORS")] * 2, got
  end

  def test_a_top_level_constant_read_from_a_class_s_method
    got = in_ractor { RactorConstantsK.str rescue $!.message }
    assert_equal message("#{FIXED_PATH ? 'Object' : 'RactorConstantsK'}::STR_FOR_RACTORS"), got
  end

  def test_the_module_s_own_constant_and_the_others
    got = in_ractor do
      [(RactorConstantsM.list rescue [$!.class, $!.message]), RactorConstantsM.frozen,
       (RactorConstantsM.scoped rescue [$!.class, $!.message.lines.first.chomp])]
    end
    assert_equal [[Ractor::IsolationError, "can not access non-shareable objects in constant RactorConstantsM::LIST by non-main ractor."],
                  "f", [NameError, "uninitialized constant RactorConstantsM::STR_FOR_RACTORS"]], got
  end

  def test_the_main_ractor_reads_them_all
    assert_equal ["s", "s", [1], "f"], [RactorConstantsM.str, RactorConstantsM.in_block, RactorConstantsM.list, RactorConstantsM.frozen]
  end
end
