# Instance variables read and written through sites that have run before (patches/mruby/0061: the
# VM keeps, per state, the iv-table slot where each OP_GETIV/OP_SETIV/attr site last found its
# ivar, and the method cache keeps an attr_reader/attr_writer's ivar name). A site's guess must
# never give another ivar's value: each test runs one site over objects whose tables differ (other
# classes, other insertion orders, removed ivars, grown tables), then checks every value.
# Passes on CRuby 3.1.

module IvarCacheSites
  # one OP_GETIV / OP_SETIV site per method, shared by every class that includes the module
  def read_a = @a
  def read_b = @b
  def write_a(v) = (@a = v)
  def write_b(v) = (@b = v)
  attr_accessor :c
end

module IvarCacheCalls
  # one attr call site per method, whatever the receiver's class
  def self.get_c(o) = o.c
  def self.set_c(o, v) = (o.c = v)
end

class IvarCacheTest < MnTest::Case
  S = IvarCacheCalls

  def klass(&body)
    c = Class.new { include IvarCacheSites }
    c.class_eval(&body) if body
    c
  end

  def test_one_site_over_objects_of_different_classes
    ab = klass { def initialize = (@a = :ab_a; @b = :ab_b; @c = :ab_c) }
    ba = klass { def initialize = (@z = 0; @y = 1; @c = :ba_c; @b = :ba_b; @a = :ba_a) }
    only_b = klass { def initialize = (@b = :only_b) }
    objs = [ab.new, ba.new, only_b.new] * 4
    objs.each_with_index do |o, i|
      assert_equal o.instance_variable_get(:@a), o.read_a, "object #{i}"
      assert_equal o.instance_variable_get(:@b), o.read_b, "object #{i}"
      assert_equal o.instance_variable_get(:@c), S.get_c(o), "object #{i}"
    end
    assert_nil only_b.new.read_a
    assert_nil S.get_c(only_b.new)
  end

  def test_one_class_with_ivars_added_in_different_orders
    k = klass
    objs = 12.times.map do |i|
      o = k.new
      names = %i[@a @b @c @d @e @f @g @h][0, 2 + i % 7]
      names = names.rotate(i) if i.odd?
      names = names.reverse if i % 3 == 0
      names.each { |n| o.instance_variable_set(n, [n, i]) }
      o
    end
    2.times do
      objs.each_with_index do |o, i|
        want = o.instance_variable_defined?(:@a) ? [:@a, i] : nil
        assert_equal want, o.read_a
        want = o.instance_variable_defined?(:@b) ? [:@b, i] : nil
        assert_equal want, o.read_b
        want = o.instance_variable_defined?(:@c) ? [:@c, i] : nil
        assert_equal want, S.get_c(o)
      end
    end
    objs.each_with_index do |o, i|
      o.write_a(i)
      o.write_b(-i)
      S.set_c(o, i * 10)
    end
    objs.each_with_index do |o, i|
      assert_equal [i, -i, i * 10], [o.read_a, o.read_b, o.c]
      assert_equal i, o.instance_variable_get(:@a)
      assert_equal(-i, o.instance_variable_get(:@b))
      assert_equal i * 10, o.instance_variable_get(:@c)
    end
  end

  def test_removed_ivar_is_not_read_through_the_site
    k = klass { def initialize = (@a = 1; @b = 2; @c = 3) }
    o = k.new
    3.times { assert_equal [1, 2, 3], [o.read_a, o.read_b, S.get_c(o)] }
    assert_equal 1, o.remove_instance_variable(:@a)
    assert_equal 3, o.remove_instance_variable(:@c)
    assert_nil o.read_a
    assert_nil S.get_c(o)
    assert_equal 2, o.read_b
    refute o.instance_variable_defined?(:@a)
    o.write_b(:bb)
    S.set_c(o, :cc)
    o.write_a(:aa)
    assert_equal [:aa, :bb, :cc], [o.read_a, o.read_b, S.get_c(o)]
    assert_equal %i[@b @c @a].sort, o.instance_variables.sort
  end

  def frozen_message(o) = "can't modify frozen #{o.class}: #{o.inspect}"

  def test_frozen_object_raises_at_a_site_that_wrote_it_before
    k = klass { def initialize = (@a = 1; @b = 2; @c = 3) }
    o = k.new
    3.times { |i| o.write_a(i); o.write_b(i); S.set_c(o, i) }
    o.freeze
    e = assert_raise(FrozenError) { o.write_a(:x) }
    assert_equal frozen_message(o), e.message
    e = assert_raise(FrozenError) { o.write_b(:x) }
    assert_equal frozen_message(o), e.message
    e = assert_raise(FrozenError) { S.set_c(o, :x) }
    assert_equal frozen_message(o), e.message
    assert_equal [2, 2, 2], [o.read_a, o.read_b, S.get_c(o)]
    fresh = k.new.freeze
    e = assert_raise(FrozenError) { fresh.write_a(:new_ivar) }
    assert_equal frozen_message(fresh), e.message
  end

  class IvarHash < Hash
    include IvarCacheSites
  end

  class IvarError < StandardError
    include IvarCacheSites
  end

  def test_objects_that_are_not_plain_objects_share_the_site
    plain = klass { def initialize = (@b = :plain_b; @a = :plain_a) }
    h = IvarHash.new
    h[:k] = 1
    h.write_b(:hash_b)
    h.write_a(:hash_a)
    S.set_c(h, :hash_c)
    e = IvarError.new("boom")
    e.write_a(:err_a)
    S.set_c(e, :err_c)
    objs = [plain.new, h, e, plain.new]
    3.times do
      assert_equal [:plain_a, :hash_a, :err_a, :plain_a], objs.map(&:read_a)
      assert_equal [:plain_b, :hash_b, nil, :plain_b], objs.map(&:read_b)
      assert_equal [nil, :hash_c, :err_c, nil], objs.map { |o| S.get_c(o) }
    end
    assert_equal({ k: 1 }, h.to_h)
    assert_equal "boom", e.message
    h.freeze
    err = assert_raise(FrozenError) { h.write_a(1) }
    assert_equal frozen_message(h), err.message
    err = assert_raise(FrozenError) { S.set_c(h, 1) }
    assert_equal frozen_message(h), err.message
  end

  def test_class_reopened_to_add_ivars
    k = klass { def initialize = (@b = :b1) }
    old = k.new
    3.times { assert_equal [nil, :b1], [old.read_a, old.read_b] }
    k.class_eval do
      def initialize
        @x = :x
        @a = :a2
        @b = :b2
        @c = :c2
      end
      def read_x = @x
    end
    young = k.new
    [old, young, old, young].each do |o|
      want = o.equal?(old) ? [nil, :b1, nil, nil] : [:a2, :b2, :c2, :x]
      assert_equal want, [o.read_a, o.read_b, S.get_c(o), o.read_x]
    end
  end

  def test_many_ivars_and_many_sites
    names = (0...40).map { |i| "@v#{i}" }
    k = Class.new
    k.class_eval(names.each_with_index.map { |n, i| "def get#{i} = #{n}\ndef set#{i}(v) = (#{n} = v)\n" }.join)
    objs = [names, names.reverse, names.rotate(13)].map do |order|
      o = k.new
      order.each { |n| o.instance_variable_set(n, n) }
      o
    end
    sparse = k.new
    names.each_with_index { |n, i| sparse.instance_variable_set(n, n) if i % 3 == 0 }
    objs << sparse
    2.times do
      objs.each do |o|
        40.times do |i|
          want = o.instance_variable_defined?(names[i]) ? names[i] : nil
          assert_equal want, o.public_send(:"get#{i}")
        end
      end
    end
    objs.each_with_index { |o, j| 40.times { |i| o.public_send(:"set#{i}", i * 100 + j) } }
    objs.each_with_index do |o, j|
      assert_equal (0...40).map { |i| i * 100 + j }, (0...40).map { |i| o.public_send(:"get#{i}") }
    end
  end

  def test_attr_written_values_survive_gc
    k = klass
    o = k.new
    o.write_a(:a)
    GC.start
    50.times do |i|
      S.set_c(o, "str#{i}" * 3)
      o.write_b(["b", i])
      GC.start if i % 10 == 0
    end
    GC.start
    assert_equal "str49str49str49", S.get_c(o)
    assert_equal ["b", 49], o.read_b
  end

  class RactorPoint
    attr_accessor :x, :y
    def initialize(x, y)
      @x = x
      @y = y
    end
    def sum = @x + @y
    def shift(d) = (@x += d; @y -= d; self)
  end

  def test_ivars_in_ractors_running_beside_each_other
    rs = 3.times.map do |n|
      Ractor.new(n) do |k|
        pts = 20.times.map { |i| RactorPoint.new(i * k, i) }
        total = 0
        200.times do
          pts.each { |p| p.shift(1); p.x = p.x + 1; total += p.sum + p.y }
        end
        [total, pts.map(&:x).sum, pts.map(&:y).sum]
      end
    end
    want = ->(k) do
      pts = 20.times.map { |i| RactorPoint.new(i * k, i) }
      total = 0
      200.times do
        pts.each { |p| p.shift(1); p.x = p.x + 1; total += p.sum + p.y }
      end
      [total, pts.map(&:x).sum, pts.map(&:y).sum]
    end
    got = rs.map(&:take)
    assert_equal 3.times.map { |k| want.(k) }, got
  end
end
