# Isolation in non-main ractors as CRuby 4.0 has it: class variables, the variables of classes and
# modules, constants set from a ractor (class definitions, reopened classes, shareable values), the
# instance variables of shareable objects, and Kernel#global_variables. The checks pass on CRuby 3.1
# and 3.3 too: 4.0 kept their rules and added the variable and class to two messages, which are
# checked where RUBY_VERSION says 4.0 or on mnrb.

module RactorIsolationVars
  def ractor4? = mnrb? || RUBY_VERSION >= "4.0"
  def text(newer, older) = ractor4? ? newer : older
  def cvar_text(name, klass) = text("can not access class variables from non-main Ractors (#{name} from #{klass})",
                                    "can not access class variables from non-main Ractors")
end

class RactorIsolationCvars
  @@shared = 42
  @@frozen = "frozen".freeze
  @@list = [1, 2]
  def self.shared = @@shared
  def self.frozen = @@frozen
  def self.list = @@list
  def self.list=(v)
    @@list = v
  end
  def self.shared=(v)
    @@shared = v
  end
end

module RactorIsolationCvarMixin
  @@greeting = "hello".freeze
end

class RactorIsolationCvarUser
  include RactorIsolationCvarMixin
  def self.greeting = @@greeting
end

class RactorIsolationCvarsTest < MnTest::Case
  include RactorIsolationVars
  K = RactorIsolationCvars

  # Every class variable access raises, whatever the value (a shareable one too).
  def test_a_shareable_class_variable_is_refused
    e = remote_cause(Ractor.new { K.shared })
    assert_kind_of Ractor::IsolationError, e
    assert_equal cvar_text("@@shared", "RactorIsolationCvars"), e.message
    assert_kind_of Ractor::IsolationError, remote_cause(Ractor.new { K.frozen })
    assert_kind_of Ractor::IsolationError, remote_cause(Ractor.new { RactorIsolationCvarUser.greeting })
  end

  def test_reading_an_unshareable_class_variable_raises
    e = remote_cause(Ractor.new { K.list })
    assert_kind_of Ractor::IsolationError, e
    assert_equal cvar_text("@@list", "RactorIsolationCvars"), e.message
    e = remote_cause(Ractor.new { K.class_variable_get(:@@list) })
    assert_kind_of Ractor::IsolationError, e
  end

  def test_setting_a_class_variable_raises
    e = remote_cause(Ractor.new { K.shared = 1 })
    assert_kind_of Ractor::IsolationError, e
    assert_equal cvar_text("@@shared", "RactorIsolationCvars"), e.message
    assert_kind_of Ractor::IsolationError, remote_cause(Ractor.new { K.list = [3] })
    assert_kind_of Ractor::IsolationError, remote_cause(Ractor.new { K.class_variable_set(:@@list, 1) })
    assert_equal [42, [1, 2]], [K.shared, K.list]
  end

  # Even a missing one is an IsolationError, not a NameError: the check comes first.
  def test_a_missing_class_variable_raises_isolation_error
    e = remote_cause(Ractor.new { K.class_variable_get(:@@nothing) })
    assert_kind_of Ractor::IsolationError, e
  end

  def test_a_ractors_own_class_variables_are_refused_too
    e = remote_cause(Ractor.new { eval("class ::RactorIsolationOwnCvar; @@n = 1; end") })
    assert_kind_of Ractor::IsolationError, e
    assert_equal cvar_text("@@n", "RactorIsolationOwnCvar"), e.message
  end

  def test_the_main_ractor_reads_and_writes_them
    K.list = [1, 2, 3]
    assert_equal [1, 2, 3], K.list
  ensure
    K.list = [1, 2]
  end
end

class RactorIsolationOwner
  @plain = 1
  @list = [1]          # unshareable: reading it from a ractor raises, but it is defined
  class << self
    attr_accessor :plain
    def list_defined = defined?(@list)
    def missing_defined = defined?(@missing)
  end
end

# Constants: a ractor sets any constant to a shareable value (a class or module it defines, a
# number, a frozen string), reopens classes and adds methods to them; an unshareable value raises.
# Class-level instance variables are never set from a ractor, even those of a class it made.
class RactorIsolationConstantsSetTest < MnTest::Case
  include RactorIsolationVars
  SET_MSG = "can not set constants with non-shareable objects by non-main Ractors"
  IVAR_MSG = "can not set instance variables of classes/modules by non-main Ractors"

  def test_a_class_defined_inside_a_ractor_works
    r = Ractor.new { eval("class ::RactorIsolationDefinedInside; def hi = :hi; end; ::RactorIsolationDefinedInside.new.hi") }
    assert_equal :hi, r.take
  end

  def test_a_constant_set_to_a_shareable_value_works
    assert_equal [1, "s", 3], Ractor.new { eval("RIC_ONE = 1; RIC_STR = 's'.freeze; [RIC_ONE, RIC_STR, RactorIsolationOwner::RIC_THREE = 3]") }.take
    assert_equal 7, Ractor.new { Object.const_set(:RactorIsolationConstSet, 7) }.take
  end

  def test_reopening_a_class_of_the_main_ractor_adds_methods
    r = Ractor.new do
      eval("class ::RactorIsolationOwner; def self.added_in_a_ractor = :added; end")
      RactorIsolationOwner.added_in_a_ractor
    end
    assert_equal :added, r.take
  end

  def test_a_module_defined_inside_a_ractor_works
    assert_equal 2, Ractor.new { eval("module ::RactorIsolationModInside; def self.two = 2; end; ::RactorIsolationModInside.two") }.take
  end

  def test_a_constant_set_to_an_unshareable_value_raises
    e = remote_cause(Ractor.new { eval("RactorIsolationOwner::NEW_TWO = [1]") })
    assert_kind_of Ractor::IsolationError, e
    assert_equal SET_MSG, e.message
    assert !RactorIsolationOwner.const_defined?(:NEW_TWO)
    e = remote_cause(Ractor.new { eval("RIC_LIST = [1, 2]") })
    assert_equal SET_MSG, e.message
    e = remote_cause(Ractor.new { Object.const_set(:RactorIsolationConstSetList, [1]) })
    assert_kind_of Ractor::IsolationError, e
    assert_equal SET_MSG, e.message
    e = remote_cause(Ractor.new { eval("class ::RactorIsolationOwnConst; LIMIT = 'x'.dup; end") })
    assert_equal SET_MSG, e.message
  end

  def test_a_one_letter_constant_is_checked
    e = remote_cause(Ractor.new { eval("Z = 'z'.dup") })
    assert_kind_of Ractor::IsolationError, e
    assert_equal SET_MSG, e.message
  end

  def test_setting_an_ivar_of_a_given_class_raises
    e = remote_cause(Ractor.new { RactorIsolationOwner.plain = 2 })
    assert_kind_of Ractor::IsolationError, e
    assert_equal IVAR_MSG, e.message
    assert_equal 1, RactorIsolationOwner.plain
  end

  def test_setting_an_ivar_of_the_ractors_own_class_raises_too
    e = remote_cause(Ractor.new { Class.new { @count = 1 } })
    assert_kind_of Ractor::IsolationError, e
    assert_equal IVAR_MSG, e.message
  end

  def test_a_shareable_class_ivar_is_read
    assert_equal 1, Ractor.new { RactorIsolationOwner.plain }.take
  end

  # A class-level instance variable with an unshareable value cannot be read from a ractor, but it
  # is defined there: defined? and instance_variable_defined? say so (CRuby 3.1 and 3.3 too).
  def test_an_unshareable_class_ivar_is_defined
    skip "CRuby 4.0 answers defined? here (3.3 raises)" if RUBY_ENGINE == "ruby" && !defined?(Ractor::Port)
    r = Ractor.new do
      [RactorIsolationOwner.list_defined, RactorIsolationOwner.missing_defined,
       RactorIsolationOwner.instance_variable_defined?(:@list), RactorIsolationOwner.instance_variable_defined?("@plain"),
       RactorIsolationOwner.instance_variable_defined?(:@missing)]
    end
    assert_equal ["instance-variable", nil, true, true, false], r.take
  end
end

# The instance variables of a shareable object that is not frozen (a Ractor): neither read nor set
# from a non-main ractor (CRuby 3.1 and 4.0, same message).
class RactorIsolationShareableIvarsTest < MnTest::Case
  MSG = "can not access instance variables of shareable objects from non-main Ractors"

  def test_reading_a_ractors_ivar_raises
    me = Ractor.current
    me.instance_variable_set(:@ractor_isolation_note, 1)
    e = remote_cause(Ractor.new(me) { |r| r.instance_variable_get(:@ractor_isolation_note) })
    assert_kind_of Ractor::IsolationError, e
    assert_equal MSG, e.message
  ensure
    me.remove_instance_variable(:@ractor_isolation_note)
  end

  def test_setting_a_ractors_ivar_raises
    e = remote_cause(Ractor.new(Ractor.current) { |r| r.instance_variable_set(:@x, 1) })
    assert_kind_of Ractor::IsolationError, e
    assert_equal MSG, e.message
    e = remote_cause(Ractor.new { Ractor.current.instance_variable_set(:@x, 1) })
    assert_kind_of Ractor::IsolationError, e
  end

  def test_a_frozen_shareable_objects_ivars_are_read
    o = Object.new
    o.instance_variable_set(:@a, [1, "two"])
    Ractor.make_shareable(o)
    assert_equal [1, "two"], Ractor.new(o) { |x| x.instance_variable_get(:@a) }.take
  end
end

class RactorIsolationGlobalsListTest < MnTest::Case
  def test_global_variables_raises
    e = remote_cause(Ractor.new { global_variables })
    assert_kind_of Ractor::IsolationError, e
    assert_equal "can not access global variables from non-main Ractors", e.message
  end

  def test_the_main_ractor_lists_them
    assert_include global_variables, :$stdout
  end

  def test_ractor_local_globals_are_allowed
    r = Ractor.new do
      "ab" =~ /(a)(b)/
      pre = $`
      post = $'
      [$~[0], $1, $2, pre, post, $+, $!.nil?, $$ == Process.pid, $VERBOSE == $VERBOSE,
       $stdout.respond_to?(:write), $stdin.respond_to?(:read), $stderr.respond_to?(:write)]
    end
    assert_equal ["ab", "a", "b", "", "", "b", true, true, true, true, true, true], r.take
  end
end
