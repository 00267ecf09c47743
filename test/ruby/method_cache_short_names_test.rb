# The method cache (mruby patch 0056): short method names, which mruby packs into a symbol's
# high bits, each find their own method through the cache, also after a redefinition while cached.

class MethodCacheShortNamesTest < MnTest::Case
  class Vec
    attr_accessor :vx, :vy, :vz, :x, :y, :z
    def initialize; @vx = 1; @vy = 2; @vz = 3; @x = 4; @y = 5; @z = 6; end
    def a; :a; end
    def b; :b; end
    def c; :c; end
    def ab; :ab; end
    def abc; :abc; end
    def abcde; :abcde; end
  end

  def test_short_names_of_one_class_return_their_own_values
    v = Vec.new
    sums = Array.new(3, 0)
    1000.times do
      sums[0] += v.vx
      sums[1] += v.vy
      sums[2] += v.vz
    end
    assert_equal [1000, 2000, 3000], sums
    assert_equal [4, 5, 6], [v.x, v.y, v.z]
    assert_equal [:a, :b, :c, :ab, :abc, :abcde], [v.a, v.b, v.c, v.ab, v.abc, v.abcde]
  end

  def test_a_cached_short_name_sees_its_redefinition
    v = Vec.new
    seen = []
    3.times do |i|
      seen << v.a << v.b
      Vec.class_eval { define_method(:a) { [:a, i] } } if i == 1
    end
    assert_equal [:a, :b, :a, :b, [:a, 1], :b], seen
  ensure
    Vec.class_eval { def a; :a; end }
  end

  def test_writers_and_readers_of_short_names_alternate
    v = Vec.new
    100.times { |i| v.vx = i; v.vy = -i; v.vz = i * 2 }
    assert_equal [99, -99, 198], [v.vx, v.vy, v.vz]
  end
end
