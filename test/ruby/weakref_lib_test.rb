# require "weakref" as CRuby's: a WeakRef is a Delegator to an object it does not keep alive; once
# the collector frees the object, weakref_alive? is false and calls raise WeakRef::RefError.
require "weakref"

class WeakrefLibTest < MnTest::Case
  def test_delegates_while_the_target_lives
    target = +"abc"
    r = WeakRef.new(target)
    assert r.weakref_alive?
    assert_equal "ABC", r.upcase
    assert_equal 3, r.size
    assert_equal "\"abc\"", r.inspect
    assert_same target, r.__getobj__
    assert r == "abc"
    assert_equal WeakRef, r.class
    assert_kind_of Delegator, r
  end

  def test_nil_true_and_false_stay_alive
    [nil, true, false].each do |v|
      r = WeakRef.new(v)
      assert r.weakref_alive?
      assert_equal v, r.__getobj__
    end
  end

  def test_ref_error_is_a_standard_error
    assert_equal StandardError, WeakRef::RefError.superclass
  end

  def make_refs(n) = Array.new(n) { WeakRef.new(Object.new) }

  # Some of many unreferenced targets are freed by a full collection (CRuby scans its machine
  # stack conservatively, so not necessarily all).
  def test_a_freed_target_is_no_longer_reached
    refs = make_refs(200)
    GC.start
    dead = refs.reject(&:weakref_alive?)
    refute dead.empty?, "no target was freed"
    e = assert_raise(WeakRef::RefError) { dead.first.to_s }
    assert_equal "Invalid Reference - probably recycled", e.message
    assert_raise(WeakRef::RefError) { dead.first.__getobj__ }
  end

  def test_a_referenced_target_survives_collection
    keep = Array.new(10) { Object.new }
    refs = keep.map { |o| WeakRef.new(o) }
    GC.start
    assert refs.all?(&:weakref_alive?)
    assert_equal keep, refs.map(&:__getobj__)
  end

  def test_loads_and_works_in_another_ractor
    mnrb_only
    r = Ractor.new do
      require "weakref"
      s = +"x"
      w = WeakRef.new(s)
      [w.weakref_alive?, w.upcase]
    end
    assert_equal [true, "X"], r.take
  end
end
