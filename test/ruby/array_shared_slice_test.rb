# In-place changes of an Array that shares its parent's buffer (a slice such as a[10..]) after the
# parent is garbage: compact! and rotate! read and wrote freed memory in mruby 3.1's mruby-array-ext
# (issue 18: a multi-threaded fuzz found it; ASan: heap-use-after-free). mruby 3.3 makes the slice's
# buffer its own first; this keeps it so, with collections between, also from several threads.
class ArraySharedSliceTest < MnTest::Case
  def fresh_slice(n)
    parent = Array.new(n) { |i| i % 3 == 0 ? nil : "s#{i}" }
    parent[10..]
  end

  def expected(n, rot)
    Array.new(n) { |i| i % 3 == 0 ? nil : "s#{i}" }[10..].compact.rotate(rot)
  end

  def test_compact_and_rotate_on_a_slice_whose_parent_was_collected
    200.times do |k|
      slice = fresh_slice(100 + k)
      GC.start
      slice.compact!
      slice.rotate!(k % 7 - 3)
      assert_equal expected(100 + k, k % 7 - 3), slice
    end
  end

  def test_the_same_from_threads_that_switch_between_the_steps
    threads = Array.new(4) do |t|
      Thread.new do
        100.times do |k|
          slice = fresh_slice(50 + k + t)
          Thread.pass
          slice.compact!
          Thread.pass
          slice.rotate!(t + 1)
          raise "slice #{k}: #{slice.inspect[0, 60]}" unless slice == expected(50 + k + t, t + 1)
        end
        :ok
      end
    end
    assert_equal [:ok] * 4, threads.map(&:value)
  end
end
