# mnrb's helpers for its built-in Ruby code (methods named `__mnrb_...`, the autoload table) are not
# visible as CRuby's built-ins have nothing of the kind: no method list shows them, respond_to? is
# false for them, and the only top-level constants of mnrb's own are MNRB and MNRB_VERSION.
# (Object.singleton_methods listed :__mnrb_regexp_literal, Object.methods twenty such names.)
class InternalNamesHiddenTest < MnTest::Case
  def internal(list) = list.grep(/mnrb/i)

  def test_no_method_list_shows_them
    assert_equal [], internal(Object.singleton_methods)
    assert_equal [], internal(Object.methods)
    assert_equal [], internal(Object.private_methods)
    assert_equal [], internal(Kernel.private_instance_methods)
    assert_equal [], internal(Kernel.instance_methods)
    assert_equal [], internal(Module.instance_methods + Module.private_instance_methods)
    [String, Integer, Float, Array, Hash, Struct, Range, Time, Regexp, Comparable, Enumerable].each do |c|
      assert_equal [], internal(c.instance_methods + c.private_instance_methods + c.singleton_methods), c.to_s
    end
    assert_equal [], internal("".methods + 1.0.methods + [].methods + {}.methods)
  end

  def test_respond_to_is_false_for_them
    assert_equal false, Object.respond_to?(:__mnrb_regexp_literal)
    assert_equal false, Object.respond_to?(:__mnrb_defined_path)
  end

  def test_no_top_level_constant_of_mnrb_but_its_own_module
    assert_equal [], Object.constants.grep(/mnrb/i) - [:MNRB, :MNRB_VERSION]
  end
end
