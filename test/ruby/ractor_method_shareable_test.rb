# Ractor.make_shareable of a Method and an UnboundMethod (issue 20; CRuby's bootstraptest/
# test_ractor.rb L1383): a Method whose receiver is shareable becomes shareable (frozen; its
# receiver is not made shareable for it), one whose receiver is not raises Ractor::Error "can not
# make shareable object for #<Method: ...>", and a shareable one can be used in a ractor (mnrb
# copies it as its receiver or class and name, looked up there again). CRuby 3.3.8 and 3.1.2 refuse
# every Method (the refusal test passes there; the others: ractor4?).
class RactorMethodShareableTest < MnTest::Case
  def need4 = (skip "CRuby 3.x refuses to make a Method shareable" unless mnrb? || RUBY_VERSION >= "4.0")

  def test_a_method_of_a_shareable_receiver
    need4
    m = Object.method(:__id__)
    refute Ractor.shareable?(m)
    assert_same m, Ractor.make_shareable(m)
    assert Ractor.shareable?(m)
    assert m.frozen?
  end

  def test_a_method_of_an_unshareable_receiver_is_refused
    o = Object.new
    e = assert_raise(Ractor::Error) { Ractor.make_shareable(o.method(:to_s)) }
    assert e.message.include?("can not make shareable object"), e.message
    refute o.frozen?
  end

  def test_an_unbound_method
    need4
    u = String.instance_method(:upcase)
    refute Ractor.shareable?(u)
    Ractor.make_shareable(u)
    assert Ractor.shareable?(u)
  end

  def test_used_in_a_ractor
    need4
    self.class.const_set(:M1, Ractor.make_shareable(Object.method(:name))) unless self.class.const_defined?(:M1)
    self.class.const_set(:M2, Ractor.make_shareable(Object.instance_method(:frozen?))) unless self.class.const_defined?(:M2)
    got = Ractor.new { [M1.call, M2.bind_call(1), M2.bind_call(+"s"), Ractor.shareable?(M1)] }.take
    assert_equal ["Object", true, false, true], got
  end

  def test_sent_to_a_ractor
    need4
    m = Ractor.make_shareable(Integer.method(:sqrt))
    assert_equal [3, true], Ractor.new(m) { |x| [x.call(9), x.frozen?] }.take
  end
end
