# A bare name that is neither a local variable nor a method (CRuby's "vcall", `x`) raises NameError
# "undefined local variable or method 'x' for ...", not NoMethodError; `x()`, `self.x`, `x?`, `x {}`
# and `send(:x)` are method calls and raise NoMethodError. Both set #name and #receiver.
# The message names the receiver as NoMethodError's does (nomethod_message_test.rb): CRuby 3.4's
# wording, checked where RUBY_VERSION is 3.4+ or on mnrb (3.1 said "for main:Object" with a backtick).

VCALL_MAIN = self
MAIN_VCALL_ERROR = begin
  vcall_test_undefined_name
rescue NameError => e
  e
end

class VcallNameErrorTest < MnTest::Case
  class Holder
    def bare = vcall_missing
    def called = vcall_missing()
    def block_bare = [1].map { vcall_missing }
    def with_block = vcall_missing { 1 }
  end

  class Forwarder   # a method_missing of its own that gives up: the bare name still decides
    def method_missing(name, *args) = name == :known ? :ok : super
    def respond_to_missing?(name, priv = false) = name == :known || super
    def bare = unknown_thing
    def known_bare = known
    def called = unknown_thing()
  end

  def newer_wording? = RUBY_VERSION >= "3.4" || mnrb?

  def error_of
    yield
    flunk "nothing raised"
  rescue NameError => e
    e
  end

  def test_bare_name_raises_name_error
    e = error_of { Holder.new.bare }
    assert_equal NameError, e.class
    assert_equal :vcall_missing, e.name
    assert_kind_of Holder, e.receiver
    if newer_wording?
      assert_equal "undefined local variable or method 'vcall_missing' for an instance of #{Holder}", e.message
    end
  end

  def test_bare_name_at_top_level_names_main
    assert_equal NameError, MAIN_VCALL_ERROR.class
    assert_equal :vcall_test_undefined_name, MAIN_VCALL_ERROR.name
    assert_same VCALL_MAIN, MAIN_VCALL_ERROR.receiver
    if newer_wording?
      assert_equal "undefined local variable or method 'vcall_test_undefined_name' for main", MAIN_VCALL_ERROR.message
    else
      assert_equal true, MAIN_VCALL_ERROR.message.start_with?("undefined local variable or method `vcall_test_undefined_name' for main")
    end
  end

  def test_call_with_parentheses_raises_no_method_error
    e = error_of { Holder.new.called }
    assert_equal NoMethodError, e.class
    assert_equal :vcall_missing, e.name
    assert_equal "undefined method 'vcall_missing' for an instance of #{Holder}", e.message if newer_wording?
  end

  def test_self_call_and_block_and_send_raise_no_method_error
    assert_equal NoMethodError, error_of { self.vcall_missing }.class
    assert_equal NoMethodError, error_of { Holder.new.with_block }.class
    assert_equal NoMethodError, error_of { send(:vcall_missing) }.class
    assert_equal NoMethodError, error_of { vcall_missing? }.class
    assert_equal NoMethodError, error_of { vcall_missing 1 }.class
  end

  def test_bare_name_in_a_block
    e = error_of { Holder.new.block_bare }
    assert_equal NameError, e.class
    assert_equal :vcall_missing, e.name
  end

  def test_bare_name_in_this_method
    e = error_of { vcall_missing }
    assert_equal NameError, e.class
    assert_same self, e.receiver
  end

  def test_rescue_no_method_error_does_not_catch_a_bare_name
    caught = begin
      begin
        vcall_missing
      rescue NoMethodError
        :no_method_error
      end
    rescue NameError
      :name_error
    end
    assert_equal :name_error, caught
  end

  def test_hash_shorthand_is_a_bare_name
    e = error_of { {vcall_missing:} }
    assert_equal NameError, e.class
    assert_equal :vcall_missing, e.name
  end

  def test_eval_of_a_bare_name
    e = error_of { eval("vcall_missing") }
    assert_equal NameError, e.class
    e = error_of { eval("vcall_missing()") }
    assert_equal NoMethodError, e.class
  end

  def test_method_missing_calling_super
    f = Forwarder.new
    assert_equal :ok, f.known_bare
    e = error_of { f.bare }
    assert_equal NameError, e.class
    assert_equal :unknown_thing, e.name
    assert_same f, e.receiver
    assert_equal NoMethodError, error_of { f.called }.class
  end

  def test_defined_is_unchanged
    assert_nil defined?(vcall_missing)
    assert_equal "method", defined?(error_of)
  end

  def test_a_local_assigned_later_is_a_local
    vcall_local = 1 if false
    assert_nil vcall_local
  end

  def test_an_existing_method_called_bare_still_runs
    assert_equal :ok, Forwarder.new.known_bare
    assert_equal true, [newer_wording?].size == 1
  end
end
