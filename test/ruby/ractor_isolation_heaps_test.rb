# mnrb's ractors each have their own heap (docs/DESIGN.md, "Object identity, ObjectSpace and GC per
# ractor"): these tests pin the differences from CRuby that this brings. Each says what CRuby does.

class RactorHeapMarker; end

class RactorIsolationHeapsTest < MnTest::Case
  def count_markers
    n = 0
    ObjectSpace.each_object(RactorHeapMarker) { n += 1 }
    n
  end

  # ObjectSpace.each_object walks the calling ractor's heap only. (CRuby 4.0: the calling ractor's
  # objects and the shareable objects of the others; one heap holds them all.)
  def test_each_object_sees_only_the_ractors_own_heap
    mnrb_only
    keep = Array.new(3) { RactorHeapMarker.new }
    assert_equal 3, count_markers
    r = Ractor.new do
      mine = Array.new(5) { RactorHeapMarker.new }
      n = 0
      ObjectSpace.each_object(RactorHeapMarker) { n += 1 }
      [n, mine.size]
    end
    assert_equal [5, 5], r.take
    assert_equal 3, count_markers     # the ractor's markers were never in this heap
    keep.clear
  end

  # GC.start collects the calling ractor's heap; GC.count counts its collections only. (CRuby: one
  # GC for every ractor, one count.)
  def test_gc_is_per_ractor
    mnrb_only
    before = GC.count
    r = Ractor.new do
      c0 = GC.count
      GC.start
      started = GC.count > c0
      100_000.times { +"garbage" }      # enough allocation for collections of its own
      [started, GC.count > c0]
    end
    assert_equal [true, true], r.take
    assert_equal before, GC.count     # nothing of that happened in the main ractor's heap
  end

  # An object that crosses is a copy with an object_id of the receiver's heap, even a shareable
  # (deeply frozen) one. (CRuby passes shareable objects by reference: the same object_id.)
  def test_a_shareable_object_arrives_as_a_copy
    mnrb_only
    s = "frozen".freeze
    a = [1, s].freeze
    id, inner_frozen = Ractor.new(a) { |x| [x.object_id, x[1].frozen?] }.take
    assert id != a.object_id
    assert inner_frozen
    assert Ractor.shareable?(a)
  end

  # A Ractor object is one per ractor and state: the same ractor seen from two ractors is two
  # objects (== holds within each), but they share one object_id, the ractor's (CRuby: one shared
  # object, so one object_id), which no other object of any heap has.
  def test_a_ractor_has_an_object_per_ractor_and_one_object_id
    main_id = Ractor.main.object_id
    same, seen_id, self_id = Ractor.new { [Ractor.main.equal?(Ractor.main), Ractor.main.object_id, self.object_id] }.take
    assert same
    assert_equal main_id, seen_id
    assert_equal Ractor.main.__id__, main_id
    r = Ractor.new { [Ractor.current.object_id, Object.new.object_id] }
    ids = r.take
    assert_equal r.object_id, ids[0]
    assert ids[1] != r.object_id
    assert self_id != main_id
  end

  # Classes and modules are each ractor's own copies, found by name: a class sent in a message is
  # the receiver's class of that name. (CRuby shares one class table: the same object.)
  def test_classes_are_each_ractors_own
    mnrb_only
    id, name, same_name = Ractor.new(RactorHeapMarker) { |k| [k.object_id, k.name, k.equal?(RactorHeapMarker)] }.take
    assert id != RactorHeapMarker.object_id
    assert_equal "RactorHeapMarker", name
    assert same_name
  end

  # The object_ids of live objects differ across ractors (mnrb's come from each heap's addresses),
  # as in CRuby. (An id may come back once its object is collected or its ractor has ended; CRuby
  # 3.4+ never reuses one.)
  def test_live_object_ids_do_not_collide
    r = Ractor.new do
      keep = Array.new(50) { Object.new }
      Ractor.yield keep.map(&:object_id)
      Ractor.receive                    # keeps its objects alive while the main ractor compares
      keep.size
    end
    theirs = r.take
    mine = Array.new(50) { Object.new }
    assert_equal 50, theirs.uniq.size
    assert_equal 100, (theirs + mine.map(&:object_id)).uniq.size
    r.send(:done)
    assert_equal 50, r.take
  end
end
