# Isolation in non-main ractors: class variables, the variables of classes and modules the ractor
# did not create, constants set from a ractor, the instance variables of shareable objects, and
# Kernel#global_variables. Error classes are checked on CRuby 3.1 too; the messages are CRuby 4.0's
# (its newest source) on mnrb or a CRuby >= 4.0, 3.1's otherwise. Where 3.1 refused what 4.0
# allows (a shareable class variable, a ractor's own class), the test says so.

module RactorIsolationVars
  def ractor4? = mnrb? || RUBY_VERSION >= "4.0"
  def text(newer, older) = ractor4? ? newer : older
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

  def test_a_shareable_class_variable_is_read
    r = Ractor.new { [K.shared, K.frozen, RactorIsolationCvarUser.greeting] }
    if ractor4?
      assert_equal [42, "frozen", "hello"], r.take
    else                                  # CRuby 3.1 refused every class variable access
      assert_kind_of Ractor::IsolationError, remote_cause(r)
    end
  end

  def test_reading_an_unshareable_class_variable_raises
    e = remote_cause(Ractor.new { K.list })
    assert_kind_of Ractor::IsolationError, e
    assert_equal text("can not read non-shareable class variable @@list from non-main Ractors (RactorIsolationCvars)",
                      "can not access class variables from non-main Ractors"), e.message
    e = remote_cause(Ractor.new { K.class_variable_get(:@@list) })
    assert_kind_of Ractor::IsolationError, e
  end

  def test_setting_a_class_variable_raises
    e = remote_cause(Ractor.new { K.shared = 1 })
    assert_kind_of Ractor::IsolationError, e
    assert_equal text("can not set class variables from non-main Ractors (@@shared from RactorIsolationCvars)",
                      "can not access class variables from non-main Ractors"), e.message
    assert_kind_of Ractor::IsolationError, remote_cause(Ractor.new { K.list = [3] })
    assert_kind_of Ractor::IsolationError, remote_cause(Ractor.new { K.class_variable_set(:@@list, 1) })
    assert_equal [42, [1, 2]], [K.shared, K.list]
  end

  def test_a_missing_class_variable_is_still_a_name_error
    e = remote_cause(Ractor.new { K.class_variable_get(:@@nothing) })
    assert_kind_of NameError, e if ractor4?
    assert_kind_of StandardError, e
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
  class << self
    attr_accessor :plain
  end
end

# A ractor may set the instance variables and constants of the classes it creates itself (CRuby 4.0);
# the classes it was given are "created by another Ractor".
class RactorIsolationOwnershipTest < MnTest::Case
  include RactorIsolationVars

  def test_a_ractor_sets_its_own_class_variables
    r = Ractor.new do
      k = Class.new do
        @count = 1
        class << self
          attr_accessor :count
        end
      end
      k.count = 5
      k.const_set(:LIMIT, [1, 2])
      [k.count, k::LIMIT]
    end
    if ractor4?
      assert_equal [5, [1, 2]], r.take
    else                                  # 3.1 refused every class-level instance variable write
      assert_kind_of Ractor::IsolationError, remote_cause(r)
    end
  end

  def test_setting_a_constant_of_a_given_class_raises
    r = Ractor.new { eval("RactorIsolationOwner::NEW_ONE = 1") }
    if ractor4?
      e = remote_cause(r)
      assert_kind_of Ractor::IsolationError, e
      assert_equal "can not set constants of classes/modules created by another Ractor", e.message
    else                                  # 3.1 only refused unshareable values
      assert_equal 1, r.take
    end
    e = remote_cause(Ractor.new { eval("RactorIsolationOwner::NEW_TWO = [1]") })
    assert_kind_of Ractor::IsolationError, e
    assert !RactorIsolationOwner.const_defined?(:NEW_TWO)
  end

  def test_a_top_level_class_definition_is_a_constant_of_object
    mnrb_only   # 3.1 allowed it
    e = remote_cause(Ractor.new { eval("class RactorIsolationDefinedInside; end") })
    assert_kind_of Ractor::IsolationError, e
    assert_equal "can not set constants of classes/modules created by another Ractor", e.message
    e = remote_cause(Ractor.new { Object.const_set(:RactorIsolationConstSet, 1) })
    assert_kind_of Ractor::IsolationError, e
  end

  def test_setting_an_ivar_of_a_given_class_raises
    e = remote_cause(Ractor.new { RactorIsolationOwner.plain = 2 })
    assert_kind_of Ractor::IsolationError, e
    assert_equal text("can not set instance variables of classes/modules created by another Ractor",
                      "can not set instance variables of classes/modules by non-main Ractors"), e.message
    assert_equal 1, RactorIsolationOwner.plain
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
