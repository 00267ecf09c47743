# The GC module as CRuby's: GC.start with its keywords, GC.count and GC.stat counting real
# collections and objects (mnrb: this ractor's heap), GC.stress collecting at every allocation,
# GC.disable/GC.enable returning the previous state. Expected values are CRuby 3.1's (this file
# passes there too).

class GcApiTest < MnTest::Case
  def test_start_takes_crubys_keywords
    assert_nil GC.start
    assert_nil GC.start(full_mark: true, immediate_sweep: true)
    assert_nil GC.start(full_mark: false, immediate_mark: false, immediate_sweep: false)
    assert_raise(ArgumentError) { GC.start(bogus: 1) }
    assert_nil ObjectSpace.garbage_collect(full_mark: true)
  end

  def test_start_counts_a_major_collection
    before = GC.stat
    GC.start
    after = GC.stat
    assert after[:count] > before[:count]
    assert after[:major_gc_count] > before[:major_gc_count]
    assert_equal after[:count], GC.count
    assert_equal after[:major_gc_count] + after[:minor_gc_count], after[:count]
  end

  def test_stat_keys_and_values
    s = GC.stat
    %i[count heap_allocated_pages heap_available_slots heap_live_slots heap_free_slots
       total_allocated_objects total_freed_objects minor_gc_count major_gc_count].each do |k|
      assert_kind_of Integer, s[k], k
      assert s[k] >= 0, k
    end
    assert_equal s[:heap_available_slots], s[:heap_live_slots] + s[:heap_free_slots]
    assert s[:total_allocated_objects] >= s[:total_freed_objects]
  end

  def test_stat_of_one_key
    assert_kind_of Integer, GC.stat(:count)
    GC.start
    assert GC.stat(:count) >= 1
    e = assert_raise(ArgumentError) { GC.stat(:no_such_key) }
    assert_equal "unknown key: no_such_key", e.message
    assert_raise(TypeError) { GC.stat("count") }
  end

  def test_stat_fills_a_given_hash
    h = {}
    assert_same h, GC.stat(h)
    assert_kind_of Integer, h[:count]
  end

  def test_allocations_are_counted
    before = GC.stat(:total_allocated_objects)
    objs = Array.new(1000) { Object.new }
    assert GC.stat(:total_allocated_objects) - before >= 1000
    assert_equal 1000, objs.size
  end

  def make_garbage(n) = n.times { Object.new }

  def test_collected_objects_are_counted_as_freed
    before = GC.stat(:total_freed_objects)
    make_garbage(5000)
    GC.start
    assert GC.stat(:total_freed_objects) - before >= 1000
  end

  def test_stress_collects_at_every_allocation
    assert_equal false, GC.stress
    before = GC.count
    begin
      assert_equal true, (GC.stress = true)
      assert_equal true, GC.stress
      5.times { Object.new }
    ensure
      GC.stress = false
    end
    assert_equal false, GC.stress
    assert GC.count - before >= 5, "#{GC.count - before} collections"
  end

  def test_disable_and_enable_return_the_previous_state
    assert_equal false, GC.disable
    assert_equal true, GC.disable
    assert_equal true, GC.enable
    assert_equal false, GC.enable
  ensure
    GC.enable
  end
end
