# Kernel's global functions select and test are private instance methods, as in CRuby
# (Kernel.private_instance_methods lists them), and public module functions (Kernel.test);
# Module#ruby2_keywords is private, and the top level has its own private ruby2_keywords.
# Expected values: CRuby 3.1 and 3.3.8.

class KernelPrivateMethodsTest < MnTest::Case
  def test_kernel_select_and_test_private
    %i[select test].each do |m|
      assert_include Kernel.private_instance_methods, m
      assert !Kernel.public_instance_methods.include?(m), "#{m} public"
      assert !1.respond_to?(m), "1.respond_to?(#{m.inspect})"
    end
    assert_raise(NoMethodError) { Object.new.test(?e, __FILE__) }
  end

  def test_kernel_functions_still_callable
    assert_equal true, test(?e, __FILE__)
    assert_equal true, Kernel.test(?f, __FILE__)
    r, w = IO.pipe
    w << "x"
    assert_equal [[r], [], []], select([r], nil, nil, 1)
    r.close
    w.close
  end

  def test_module_ruby2_keywords_private
    assert_include Module.private_instance_methods, :ruby2_keywords
    assert !Module.public_instance_methods.include?(:ruby2_keywords)
    assert_raise(NoMethodError) { Class.new.ruby2_keywords(:x) }
    k = Class.new do
      def f(*a) = a
      ruby2_keywords :f
    end
    assert_equal [1], k.new.f(1)
  end

  def test_toplevel_ruby2_keywords
    assert_include TOPLEVEL_BINDING.receiver.private_methods, :ruby2_keywords
  end
end
