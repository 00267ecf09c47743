# defined?(expr), which mruby 3.1 lacks (mruby patch 0015 compiles it; mnrb-compat answers what
# needs the runtime). Expected values are CRuby 3.1's.

class DefinedTest < MnTest::Case
  class Probe
    LIMIT = 3
    module Inner; end
    attr_accessor :x

    def initialize
      @iv = 1
    end

    def look
      [defined?(LIMIT), defined?(Inner), defined?(Missing), defined?(@iv), defined?(@nope), defined?(x), defined?(zz)]
    end

    def with_block
      defined?(yield)
    end

    def to_s
      defined?(super)
    end

    def no_super_here
      defined?(super)
    end
  end

  def test_variables_and_keywords
    a = 1
    $defined_test_g = 2
    assert_equal ["local-variable", nil, "global-variable", nil, "self", "nil", "true", "false"],
                 [defined?(a), defined?(b), defined?($defined_test_g), defined?($defined_test_nope), defined?(self),
                  defined?(nil), defined?(true), defined?(false)]
    assert_equal [nil, "method", "expression"], [defined?(@x), defined?(1 + 2), defined?([1, 2])]
  end

  def test_constants_and_paths
    assert_equal ["constant", "constant", nil, nil, "constant", "constant"],
                 [defined?(String), defined?(Probe::LIMIT), defined?(Probe::Nope), defined?(Nope::X), defined?(::String),
                  defined?(Math::PI)]
    assert_equal ["constant", nil], [defined?(Errno::ENOENT), defined?(Errno::EZZZZ)]
    assert_equal ["constant", "constant", nil], Probe.new.look.first(3)
  end

  def test_methods_and_receivers
    a = 1
    assert_equal ["method", nil, "method", nil, nil, "method"],
                 [defined?(String.new), defined?(String.nope), defined?(a.succ), defined?(a.nope), defined?(Nope.new), defined?(puts)]
    assert_equal ["instance-variable", nil, "method", nil], Probe.new.look.last(4)
  end

  def test_yield_and_super
    pr = Probe.new
    assert_equal [nil, "yield", "super", nil], [pr.with_block, pr.with_block { }, pr.to_s, pr.no_super_here]
  end

  def test_the_expression_is_not_evaluated
    calls = 0
    assert_equal "method", defined?(raise("boom"))
    assert_equal "assignment", defined?(@set_by_defined = (calls += 1))
    assert_equal 0, calls
    assert_equal false, instance_variable_defined?(:@set_by_defined)
  end

  def test_results_are_frozen_strings
    [defined?(String), defined?(puts), defined?(self), defined?(@nope = 1)].each do |r|
      assert_equal String, r.class
      assert r.frozen?, "#{r} not frozen"
    end
  end

  def test_a_method_named_defined_p_is_still_callable_with_a_receiver
    o = Object.new
    def o.defined?(x) = "mine #{x}"
    assert_equal "mine 1", o.defined?(1)
  end
end
