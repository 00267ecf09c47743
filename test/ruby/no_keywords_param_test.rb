# `def m(**nil)`: the method accepts no keywords (ArgumentError "no keywords accepted" when called
# with any, a positional Hash is still an argument), Method#parameters says [:nokey] and the
# arity counts nothing for it (mruby patch 0065: parse.y's f_kwrest and defn_setup).
class NoKeywordsParamTest < MnTest::Case
  class Strict
    def none(**nil) = :ok
    def one(a, **nil) = a
    def opt(a = 1, **nil, &b) = a
    def self.cls(**nil) = :cls
    def body_kept(x, **nil)
      y = x * 2
      y + 1
    end
  end

  def test_calls_without_keywords_work
    s = Strict.new
    assert_equal :ok, s.none
    assert_equal 5, s.one(5)
    assert_equal 1, s.opt
    assert_equal :cls, Strict.cls
    assert_equal 7, s.body_kept(3)
  end

  def test_keywords_are_refused
    s = Strict.new
    e = assert_raise(ArgumentError) { s.none(k: 1) }
    assert_equal "no keywords accepted", e.message
    e = assert_raise(ArgumentError) { s.one(1, k: 1) }
    assert_equal "no keywords accepted", e.message
    h = { k: 1 }
    assert_raise(ArgumentError) { s.one(1, **h) }
    assert_raise(ArgumentError) { Strict.cls(k: 1) }
  end

  def test_a_positional_hash_is_an_argument
    assert_equal({ k: 1 }, Strict.new.one({ k: 1 }))
  end

  def test_parameters_and_arity
    m = Strict.instance_method(:none)
    assert_equal [[:nokey]], m.parameters
    assert_equal 0, m.arity
    assert_equal [[:req, :a], [:nokey]], Strict.instance_method(:one).parameters
    assert_equal 1, Strict.instance_method(:one).arity
    assert_equal [[:opt, :a], [:nokey], [:block, :b]], Strict.instance_method(:opt).parameters
    assert_equal(-1, Strict.instance_method(:opt).arity)
  end
end
