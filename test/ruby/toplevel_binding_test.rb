# TOPLEVEL_BINDING: a Binding whose self is main, for eval at the top level (ERB, irb, rake use
# it). Expected values: CRuby 3.1 and 3.3.8.

class ToplevelBindingTest < MnTest::Case
  def test_is_a_binding_of_main
    assert_kind_of Binding, TOPLEVEL_BINDING
    assert_equal "main", TOPLEVEL_BINDING.receiver.to_s
    assert_equal "main", eval("self", TOPLEVEL_BINDING).to_s
  end

  def test_defines_at_the_top_level
    eval("def toplevel_binding_test_m = 42", TOPLEVEL_BINDING)
    assert_equal 42, Object.new.__send__(:toplevel_binding_test_m)
  end

  def test_keeps_variables_between_evals
    eval("toplevel_binding_test_v = 5", TOPLEVEL_BINDING)
    assert_equal 5, eval("toplevel_binding_test_v", TOPLEVEL_BINDING)
    assert_equal true, TOPLEVEL_BINDING.local_variable_defined?(:toplevel_binding_test_v)
  end
end
