# Ractor::IsolationError: global variables and constants holding unshareable objects seen from a
# non-main ractor. The error classes are CRuby 3.1's too (checked on it); the messages are CRuby
# 4.0's, checked where RUBY_VERSION says 4.0 or on mnrb, 3.1's otherwise (the same text where 4.0
# kept 3.x's).

module RactorIsolationVersion
  def ractor4? = mnrb? || RUBY_VERSION >= "4.0"
  def text(newer, older) = ractor4? ? newer : older
  # 4.0 says "variable" and "Ractor" (ruby/ruby's variable.c, rb_find_global_entry, by the time of
  # its namespace work in 2025); 3.1 and 3.3 "variables ... Ractors"
  def gvar_text(name) = text("can not access global variable #{name} from non-main Ractor",
                             "can not access global variables #{name} from non-main Ractors")
end

$ractor_isolation_global = 1

module RactorIsolationConsts
  LIST = [1, 2]
  FROZEN = [1, 2].freeze
  module Inner
    NAMES = { a: "x" }
  end
end

class RactorGlobalsTest < MnTest::Case
  include RactorIsolationVersion

  def test_reading_a_global_raises
    e = remote_cause(Ractor.new { $ractor_isolation_global })
    assert_kind_of Ractor::IsolationError, e
    assert_equal gvar_text("$ractor_isolation_global"), e.message
  end

  def test_writing_a_global_raises
    e = remote_cause(Ractor.new { $ractor_isolation_global = 2 })
    assert_kind_of Ractor::IsolationError, e
    assert_equal gvar_text("$ractor_isolation_global"), e.message
    assert_equal 1, $ractor_isolation_global
  end

  def test_program_globals_raise_too
    e = remote_cause(Ractor.new { $0 })
    assert_equal gvar_text("$0"), e.message
    e = remote_cause(Ractor.new { $LOAD_PATH })
    assert_equal gvar_text("$LOAD_PATH"), e.message
    e = remote_cause(Ractor.new { $/ })
    assert_equal gvar_text("$/"), e.message
  end

  def test_a_rescued_isolation_error_lets_the_ractor_go_on
    r = Ractor.new do
      begin
        $ractor_isolation_global
      rescue Ractor::IsolationError => e
        [e.class, :went_on]
      end
    end
    assert_equal [Ractor::IsolationError, :went_on], r.take
  end

  def test_per_ractor_globals_are_allowed
    r = Ractor.new do
      $stdout.class == $stderr.class && $stdin && true
      verbose = $VERBOSE
      $VERBOSE = verbose
      debug = $DEBUG
      [$stdout.respond_to?(:write), $stderr.respond_to?(:write), verbose == $VERBOSE, debug == $DEBUG, $$ == Process.pid]
    end
    assert_equal [true, true, true, true, true], r.take
  end

  def test_match_globals_are_allowed
    r = Ractor.new do
      "key=value" =~ /(\w+)=(\w+)/
      [$~[0], $1, $2, $&]
    end
    assert_equal ["key=value", "key", "value", "key=value"], r.take
  end

  def test_the_main_ractor_is_not_affected
    $ractor_isolation_global += 1
    assert_equal 2, $ractor_isolation_global
  ensure
    $ractor_isolation_global = 1
  end
end

module RactorIsolationLexical
  TABLE = { a: [1] }
  def self.table = TABLE
end

class RactorConstantsTest < MnTest::Case
  include RactorIsolationVersion

  def const_text(path) = "can not access non-shareable objects in constant #{path} by non-main Ractor."

  def test_unshareable_constant_in_a_module
    e = remote_cause(Ractor.new { RactorIsolationConsts::LIST })
    assert_kind_of Ractor::IsolationError, e
    assert_equal const_text("RactorIsolationConsts::LIST"), e.message
  end

  def test_unshareable_constant_in_a_nested_module
    e = remote_cause(Ractor.new { RactorIsolationConsts::Inner::NAMES })
    assert_equal const_text("RactorIsolationConsts::Inner::NAMES"), e.message
  end

  # A bare name found in the class of the method's own lexical scope: CRuby writes "ractor." there.
  def test_a_bare_name_in_a_method_of_its_module_says_ractor_in_lower_case
    e = remote_cause(Ractor.new { RactorIsolationLexical.table })
    assert_kind_of Ractor::IsolationError, e
    assert_equal "can not access non-shareable objects in constant RactorIsolationLexical::TABLE by non-main ractor.", e.message
  end

  def test_shareable_constants_are_readable
    assert_equal [1, 2], Ractor.new { RactorIsolationConsts::FROZEN }.take
  end

  def test_a_missing_constant_is_still_a_name_error
    e = remote_cause(Ractor.new { RactorIsolationConsts::NOT_THERE })
    assert_kind_of NameError, e
    assert !e.is_a?(Ractor::IsolationError)
  end
end

class RactorIsolationClassIvars
  @level = 3
  @name = "x".freeze
  @list = [1, 2]
  class << self
    attr_accessor :level, :name, :list
  end
end

# Instance variables of classes and modules: readable from any ractor when their values are
# shareable, Ractor::IsolationError otherwise and for every write to a class the ractor did not
# create (CRuby 3.1 refuses writes to any class; 4.0 lets a ractor set its own classes' ones).
class RactorClassIvarsTest < MnTest::Case
  include RactorIsolationVersion
  K = RactorIsolationClassIvars

  def test_shareable_values_are_read
    assert_equal [3, "x", true], Ractor.new { [K.level, K.name, K.name.frozen?] }.take
  end

  def test_an_unset_one_is_nil
    assert_equal [nil, false],
                 Ractor.new { [K.instance_variable_get(:@unset), K.instance_variable_defined?(:@unset)] }.take
  end

  def test_reading_an_unshareable_value_raises
    e = remote_cause(Ractor.new { K.list })
    assert_kind_of Ractor::IsolationError, e
    assert_equal text("can not get unshareable values from instance variables of classes/modules from non-main Ractors (@list from RactorIsolationClassIvars)",
                      "can not get unshareable values from instance variables of classes/modules from non-main Ractors"),
                 e.message
    assert_kind_of Ractor::IsolationError, remote_cause(Ractor.new { K.instance_variable_get(:@list) })
  end

  def test_writing_raises_in_a_class_eval_and_through_a_writer
    msg = "can not set instance variables of classes/modules by non-main Ractors"
    e = remote_cause(Ractor.new { K.class_eval { @level = 4 } })
    assert_kind_of Ractor::IsolationError, e
    assert_equal msg, e.message
    assert_equal msg, remote_cause(Ractor.new { K.level = 4 }).message
    assert_equal 3, K.level
  end

  def test_the_main_ractor_reads_and_writes_them
    K.list = [1, 2, 3]
    assert_equal [1, 2, 3], K.list
  ensure
    K.list = [1, 2]
  end
end
