# `class X` / `module X` where X names something else raise CRuby's TypeError messages, naming the
# constant (mruby patch 0205; mruby named its value: "1 is not a class"), and `class X < 3` says
# CRuby's "superclass must be an instance of Class". CRuby 3.1 and 3.3.8 add a second line
# ("previous definition of X was here") that mnrb does not give: the first line is compared.
class ClassReopenMessagesTest < MnTest::Case
  module Holder
    NOT_A_CLASS = "a string"
    class AClass; end
    module AModule; end
  end

  def first_line
    yield
    flunk "no TypeError"
  rescue TypeError => e
    e.message.lines.first.chomp
  end

  def test_constant_that_is_not_a_class
    assert_equal "NOT_A_CLASS is not a class", first_line { eval "class ClassReopenMessagesTest::Holder::NOT_A_CLASS; end" }
    assert_equal "NOT_A_CLASS is not a module", first_line { eval "module ClassReopenMessagesTest::Holder::NOT_A_CLASS; end" }
    assert_equal "AModule is not a class", first_line { eval "class ClassReopenMessagesTest::Holder::AModule; end" }
    assert_equal "AClass is not a module", first_line { eval "module ClassReopenMessagesTest::Holder::AClass; end" }
  end

  def test_top_level_constant
    Object.const_set(:CLASS_REOPEN_MESSAGES_X, 1) unless defined?(::CLASS_REOPEN_MESSAGES_X)
    assert_equal "CLASS_REOPEN_MESSAGES_X is not a class", first_line { eval "class ::CLASS_REOPEN_MESSAGES_X; end" }
  end

  def test_superclass_not_a_class
    assert_equal "superclass must be an instance of Class (given an instance of Integer)",
                 first_line { eval "class ClassReopenMessagesTest::NewOne < 3; end" }
    assert_equal "superclass mismatch for class AClass",
                 first_line { eval "class ClassReopenMessagesTest::Holder::AClass < String; end" }
  end
end
