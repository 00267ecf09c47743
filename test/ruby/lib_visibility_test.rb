# Libraries loaded at require are Ruby code as CRuby's lib/ is: their `private` sections, their
# `private :name` calls and their top-level defs (private methods of Object) take effect. mnrb
# compiles them to static bytecode, which mnrb-compat's visibility methods took for a gem's
# built-in code (where they change nothing), and whose defs took the lazy path that ignores a
# frame's visibility section (patches/mruby/0184).
require "logger"
require "delegate"
require "csv"

class LibVisibilityTest < MnTest::Case
  def test_a_private_section_in_a_library
    assert Logger.private_method_defined?(:format_message)
    refute Logger.public_method_defined?(:format_message)
    logger = Logger.new(nil)
    refute logger.respond_to?(:format_message)
    assert_raise(NoMethodError) { logger.format_message("INFO", Time.now, nil, "m") }
    assert logger.respond_to?(:info)
  end

  def test_private_with_names_in_a_library
    assert CSV.private_method_defined?(:parser)
    refute CSV.new("a,b").respond_to?(:parser)
  end

  def test_a_top_level_def_in_a_library_is_a_private_method_of_object
    assert Object.private_method_defined?(:DelegateClass)
    refute Object.new.respond_to?(:DelegateClass)
    klass = DelegateClass(Array)
    assert_equal 3, klass.new([1, 2, 3]).size
  end

  def test_the_programs_own_private_sections_still_work
    c = Class.new do
      def pub; priv; end
      private
      def priv; :p; end
    end
    assert_equal :p, c.new.pub
    assert_raise(NoMethodError) { c.new.priv }
  end
end
