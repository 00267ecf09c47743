# Kernel#clone(freeze:) as CRuby's (mnrb-compat clone.c).
class CloneFreezeTest < MnTest::Case
  def test_default_keeps_the_frozen_state
    assert_equal true, "a".freeze.clone.frozen?
    assert_equal false, "c".dup.clone.frozen?
  end

  def test_freeze_false_gives_an_unfrozen_copy
    s = "a".dup.freeze
    t = s.clone(freeze: false)
    assert_equal false, t.frozen?
    t << "x"
    assert_equal ["ax", "a"], [t, s]
    a = [1, [2]].freeze
    b = a.clone(freeze: false)
    b << 3
    assert_equal [[1, [2], 3], true], [b, a.frozen?]
  end

  def test_freeze_true_gives_a_frozen_copy
    assert_equal true, "b".dup.clone(freeze: true).frozen?
    o = Object.new
    def o.hi = :hi
    c = o.clone(freeze: true)
    assert_equal [:hi, true, false], [c.hi, c.frozen?, o.frozen?]
  end

  def test_immediates_are_their_own_clone
    assert_equal [1, 1.5, :a, nil], [1.clone, 1.5.clone, :a.clone, nil.clone]
    assert_equal 1, 1.clone(freeze: true)
  end

  def test_immediates_cannot_be_unfrozen
    assert_equal "can't unfreeze Integer", assert_raise(ArgumentError) { 1.clone(freeze: false) }.message
    assert_equal "can't unfreeze Symbol", assert_raise(ArgumentError) { :a.clone(freeze: false) }.message
    assert_equal "can't unfreeze NilClass", assert_raise(ArgumentError) { nil.clone(freeze: false) }.message
  end

  def test_other_values_of_freeze_raise
    e = assert_raise(ArgumentError) { "a".clone(freeze: 1) }
    assert_equal "unexpected value for freeze: Integer", e.message
  end

  def test_a_struct
    s = Struct.new(:x).new(1).freeze
    assert_equal false, s.clone(freeze: false).frozen?
    assert_equal 1, s.clone(freeze: false).x
  end
end
