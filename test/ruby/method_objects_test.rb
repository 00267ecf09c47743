# Method objects as CRuby's: define_method(name, method) with a Method or an UnboundMethod defines
# name with that method's body (mnrb took only a Proc: TypeError; an UnboundMethod of an unrelated
# class is CRuby's TypeError), and `method === obj` calls the method (mnrb: identity).
# Expected values are CRuby 3.1's and 3.3's.
class MethodObjectsTest < MnTest::Case
  class Pa; def g(x) = "Pa#{x}"; end
  class Ch < Pa; define_method(:h, Pa.instance_method(:g)); end

  def test_an_unbound_method_of_an_ancestor
    assert_equal "Pa1", Ch.new.h(1)
    assert_equal 1, Ch.instance_method(:h).arity
  end

  def test_a_bound_method_and_a_modules_method
    m = Module.new { def twice(x) = x * 2 }
    c = Class.new { define_method(:tw, m.instance_method(:twice)) }
    assert_equal 6, c.new.tw(3)
    o = Class.new(Pa).new
    o.singleton_class.send(:define_method, :gg, o.method(:g))
    assert_equal "Pa2", o.gg(2)
  end

  def test_answers_the_name_and_keeps_private_scope
    c = Class.new(Pa)
    assert_equal :k, c.send(:define_method, :k, Pa.instance_method(:g))
    c.class_eval do
      private
      define_method(:pk, Pa.instance_method(:g))
    end
    assert_equal [:pk], c.private_instance_methods(false)
  end

  def test_an_unbound_method_of_an_unrelated_class
    assert_raise(TypeError) { Class.new { define_method(:x, Pa.instance_method(:g)) } }
    assert_raise(TypeError) { Class.new { define_method(:x, 12) } }
  end

  def test_case_equality_calls_the_method
    assert_equal true, 4.method(:<) === 5
    kind = case 12
           when 10.method(:>) then :small
           when 20.method(:>) then :medium
           end
    assert_equal :medium, kind
  end
end
