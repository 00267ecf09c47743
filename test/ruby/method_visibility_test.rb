# Module#public/private/protected_instance_methods, *_method_defined? and
# public_instance_method, and Symbol.all_symbols. mnrb records no method visibility (README), so
# the tests check what both agree on: what is defined is found, what is not is not; and, on CRuby
# only, the visibility split itself.

class MethodVisibilityTest < MnTest::Case
  class K
    def pub = 1
    private def priv = 2
    protected def prot = 3
  end
  class L < K
    def own = 4
  end

  def test_defined_methods_are_found
    assert K.public_method_defined?(:pub)
    assert K.private_method_defined?(:priv)
    assert K.protected_method_defined?("prot")
    assert L.public_method_defined?(:pub)
    refute L.public_method_defined?(:pub, false)
    assert L.public_method_defined?(:own, false)
    refute K.public_method_defined?(:nope)
    refute K.private_method_defined?(:nope)
    refute K.protected_method_defined?(:nope)
    assert_include K.public_instance_methods, :pub
    assert_include K.private_instance_methods(false), :priv
    assert_include K.protected_instance_methods(false), :prot
    assert_include L.public_instance_methods(false), :own
    refute L.public_instance_methods(false).include?(:pub)
    assert_equal 1, K.public_instance_method(:pub).bind(K.new).call
    e = assert_raise(TypeError) { K.private_method_defined?(1) }
    assert_equal "1 is not a symbol nor a string", e.message
  end

  def test_visibility_split_on_cruby
    skip "mnrb records no method visibility" if mnrb?
    refute K.public_method_defined?(:priv)
    assert_equal [:priv], K.private_instance_methods(false)
    assert_equal [:prot], K.protected_instance_methods(false)
  end

  def test_all_symbols
    syms = Symbol.all_symbols
    assert_kind_of Array, syms
    assert syms.all? { |s| s.is_a?(Symbol) }
    assert_include syms, :public_method_defined?
    made = "mnrb_all_symbols_#{syms.size}_probe".to_sym
    assert_include Symbol.all_symbols, made
  end
end

class MethodOriginalNameTest < MnTest::Case
  class A
    def orig = 1
    alias al orig
    alias_method :al2, :al
  end

  def test_original_name_through_aliases
    assert_equal :orig, A.new.method(:orig).original_name
    assert_equal :orig, A.new.method(:al).original_name
    assert_equal :al, A.new.method(:al).name
    assert_equal :orig, A.new.method(:al2).original_name
    assert_equal :orig, A.instance_method(:al2).original_name
    assert_equal :orig, A.new.method(:al).unbind.original_name
  end

  def test_public_method_and_deprecate_constant
    assert_equal 3, 1.public_method(:+).call(2)
    m = Module.new
    m.const_set(:X, 1)
    assert_same m, m.deprecate_constant(:X)
    assert_raise(NameError) { m.deprecate_constant(:Y) }
  end
end
