# require "objspace" (helper compat3): ObjectSpace.memsize_of, memsize_of_all, count_objects_size
# and count_tdata_objects exist once required, as in CRuby. Sizes are mnrb's own (a GC slot plus
# the buffers an object owns), so the tests check what holds in CRuby too: immediates take 0, a
# big String or Array takes at least its contents, totals cover their parts. Checked on CRuby 3.1
# and 3.3.8.
class ObjspaceLibTest < MnTest::Case
  def test_defined_by_require
    require "objspace"
    assert ObjectSpace.respond_to?(:memsize_of)
    assert ObjectSpace.respond_to?(:memsize_of_all)
    assert ObjectSpace.respond_to?(:count_objects_size)
  end

  def test_memsize_of
    require "objspace"
    assert_equal [0, 0, 0, 0], [1, :sym, nil, true].map { |x| ObjectSpace.memsize_of(x) }
    small = ObjectSpace.memsize_of("x".dup)
    assert small > 0
    big = "x" * 100_000
    assert ObjectSpace.memsize_of(big) >= 100_000
    assert ObjectSpace.memsize_of(Array.new(10_000, 0)) >= 10_000 * 8
    h = {}
    1000.times { |i| h[i] = i }
    assert ObjectSpace.memsize_of(h) > ObjectSpace.memsize_of({})
    assert ObjectSpace.memsize_of(Object.new) > 0
  end

  def test_memsize_of_all
    require "objspace"
    big = "y" * 200_000
    assert ObjectSpace.memsize_of_all(String) >= ObjectSpace.memsize_of(big)
    assert ObjectSpace.memsize_of_all >= ObjectSpace.memsize_of_all(String)
    assert_raise(TypeError) { ObjectSpace.memsize_of_all(3) }
    big.clear
  end

  def test_count_objects_size
    require "objspace"
    keep = "z" * 50_000
    h = ObjectSpace.count_objects_size
    assert h[:TOTAL] >= h[:T_STRING]
    assert h[:T_STRING] >= 50_000
    given = { junk: 1 }
    assert_same given, ObjectSpace.count_objects_size(given)
    assert_equal 0, given[:junk]   # CRuby zeroes the keys it does not count
    assert_kind_of Hash, ObjectSpace.count_tdata_objects
    keep.clear
  end
end
