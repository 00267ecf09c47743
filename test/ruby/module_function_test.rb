# `module_function` with no arguments makes the methods defined after it in that body module
# functions (the frame's default visibility, mruby patch 0120); with names, the named ones.
class ModuleFunctionTest < MnTest::Case
  module Util
    module_function

    def double(x) = x * 2
    def greet(name = "you") = "hi #{name}"
  end

  module Named
    def a = :a
    def b = :b
    module_function :a
  end

  module WithHook
    def self.method_added(name) = (@added ||= []) << name
    module_function
    def w = :w
    def self.added = @added
  end

  class User
    include Util
    def go = double(21)
  end

  def test_methods_after_it_are_module_functions
    assert_equal 6, Util.double(3)
    assert_equal "hi you", Util.greet
  end

  def test_they_stay_instance_methods_for_includers
    assert_equal 42, User.new.go
  end

  def test_with_names_only_the_named_ones
    assert_equal :a, Named.a
    assert_raise(NoMethodError) { Named.b }
  end

  def test_the_module_s_own_method_added_still_runs
    assert_equal :w, WithHook.w
    assert_equal [:w], WithHook.added
  end

  def test_returns_nil_without_arguments
    assert_nil Module.new { break module_function }
  end

  def test_in_a_ractor
    return unless defined?(Ractor) && RUBY_VERSION >= "3.3"
    r = Ractor.new { ModuleFunctionTest::Util.double(5) }
    assert_equal 10, r.respond_to?(:value) ? r.value : r.take
  end
end
