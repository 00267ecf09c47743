# ObjectSpace.define_finalizer and undefine_finalizer as CRuby's (helper compat3): the callable
# gets the object_id once the object is collected (here: when GC.start has freed it), never while
# it lives; undefine_finalizer removes them; CRuby's errors. (At exit: expect/finalizer_at_exit.rb.)
# Checked on CRuby 3.1 and 3.3.8, whose conservative GC may keep some of the objects (so the test
# asks that most of 200 dropped objects report, each with its own id, once).
class FinalizerTest < MnTest::Case
  # The callable is made where the object is not in scope: a block that can see the object keeps
  # it alive (in CRuby too).
  def logger(log)
    proc { |id| log << id }
  end

  # The objects live together until it returns (mnrb's object_ids are addresses: a freed object's
  # id can come back).
  def register(log, n)
    fin = logger(log)
    objs = Array.new(n) { Object.new }
    objs.each { |o| ObjectSpace.define_finalizer(o, fin) }
    ids = objs.map(&:object_id)
    objs.clear
    ids
  end

  def test_runs_with_the_object_id_after_collection
    log = []
    ids = register(log, 200)
    3.times { GC.start }
    assert log.size >= 100, "only #{log.size} of 200 finalizers ran"
    assert_equal log.uniq.size, log.size
    assert((log - ids).empty?)
  end

  def test_not_while_alive_and_undefine
    log = []
    keep = Object.new
    ObjectSpace.define_finalizer(keep, proc { |id| log << [:keep, id] })
    gone = Object.new
    ObjectSpace.define_finalizer(gone, proc { |id| log << [:gone, id] })
    assert_same gone, ObjectSpace.undefine_finalizer(gone)
    gone = nil
    GC.start
    assert_equal [], log
    assert ObjectSpace.undefine_finalizer(keep).equal?(keep)
  end

  def test_return_value_and_block_form
    o = Object.new
    pr = proc {}
    assert_equal [0, pr], ObjectSpace.define_finalizer(o, pr)
    r = ObjectSpace.define_finalizer(o) { }
    assert_equal 0, r[0]
    assert_kind_of Proc, r[1]
    ObjectSpace.undefine_finalizer(o)
  end

  def test_errors
    e = assert_raise(ArgumentError) { ObjectSpace.define_finalizer(1, proc {}) }
    assert_equal "cannot define finalizer for Integer", e.message
    e = assert_raise(ArgumentError) { ObjectSpace.define_finalizer(:a, proc {}) }
    assert_equal "cannot define finalizer for Symbol", e.message
    e = assert_raise(ArgumentError) { ObjectSpace.define_finalizer(Object.new, 3) }
    assert_equal "wrong type argument Integer (should be callable)", e.message
    e = assert_raise(FrozenError) { ObjectSpace.define_finalizer("x".freeze, proc {}) }
    assert_equal "can't modify frozen String: \"x\"", e.message
  end

  def raiser
    proc { raise "in finalizer" }
  end

  def test_a_raising_finalizer_is_ignored
    log = []
    register(log, 50)
    ObjectSpace.define_finalizer(Object.new, raiser)
    3.times { GC.start }
    assert log.size >= 25
  end
end
