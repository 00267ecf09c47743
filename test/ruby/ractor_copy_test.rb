# What a message looks like on the other side (CRuby's Ractor docs: unshareable objects are
# deep-copied; cycles and shared references within one message survive). Each object goes to a
# ractor and back: two copies between heaps.

class RactorCopyTest < MnTest::Case
  def round_trip(obj)
    r = Ractor.new { Ractor.receive }
    r.send obj
    r.take
  end

  def test_immediates_and_numbers
    [nil, true, false, 0, -1, 2**40, 1.5, -0.0, :sym, :"with space"].each do |v|
      assert_equal v, round_trip(v)
    end
  end

  # a received nil, true, false or small Integer is read without the general reader (mnrb); the
  # Integers at and past the edge of the small ones take the general path and must come back whole
  def test_integers_at_the_edge_of_immediates
    max = 2**62 + (2**62 - 1)
    [2**61 - 1, 2**61, -2**61, -2**61 - 1, 2**62, max, -max - 1, max + 1, -max - 2].each do |v|
      got = round_trip(v)
      assert_equal v, got
      assert_equal Integer, got.class
    end
  end

  # Bignums are immutable values: a ractor gets them as arguments, messages and results
  def test_bignums_cross_ractors
    assert_equal 2**101, Ractor.new(2**100) { |x| x * 2 }.take
    big = [2**64, -(3**90), { k: 10**40 }]
    assert_equal big, round_trip(big)
    assert Ractor.shareable?(2**100)
    r = Ractor.new { Ractor.receive + 1 }
    r.send(-(2**70))
    assert_equal(-(2**70) + 1, r.take)
  end

  def test_a_stream_of_immediates_arrives_in_order
    r = Ractor.new do
      got = []
      while (v = Ractor.receive) != :end
        got << v
      end
      got
    end
    sent = [nil, true, false] + (0...200).to_a + [2**62, nil]
    sent.each { |v| r.send v }
    r.send :end
    assert_equal sent, r.take
  end

  def test_string_is_a_copy
    s = "hello"
    t = round_trip(s)
    assert_equal s, t
    refute s.equal?(t)
    t << "!"
    assert_equal "hello", s
  end

  def test_binary_string
    s = "\x00\xff\x01"
    assert_equal s, round_trip(s)
  end

  def test_nested_structures
    obj = { a: [1, "two", { three: 3.0 }], "k" => (1..5), nil => [] }
    assert_equal obj, round_trip(obj)
  end

  def test_cycle_in_an_array
    a = [1]
    a << a
    b = round_trip(a)
    assert_same b, b[1]
    assert_equal 1, b[0]
  end

  def test_cycle_through_a_hash_and_an_object
    h = {}
    o = RactorCopyNode.new(h)
    h[:node] = o
    h2 = round_trip(h)
    assert h2[:node].value.equal?(h2), "the cycle is not preserved"   # (no inspect: mruby's recurses)
  end

  def test_shared_references_stay_shared
    s = "shared"
    a = [s, s, [s]]
    b = round_trip(a)
    assert_same b[0], b[1]
    assert_same b[0], b[2][0]
  end

  def test_frozen_is_kept
    a = ["x".freeze, "y"].freeze
    b = round_trip(a)
    assert b.frozen?
    assert b[0].frozen?
    refute b[1].frozen?
  end

  def test_subclasses_of_core_classes_keep_their_class
    s = RactorCopyString.new("s")
    a = RactorCopyArray.new([1, 2])
    h = RactorCopyHash.new
    h[:k] = 1
    x = round_trip([s, a, h])
    assert_equal RactorCopyString, x[0].class
    assert_equal "s", x[0]
    assert_equal RactorCopyArray, x[1].class
    assert_equal [1, 2], x[1]
    assert_equal RactorCopyHash, x[2].class
    assert_equal 1, x[2][:k]
  end

  def test_object_with_instance_variables
    o = RactorCopyNode.new([1, "a"])
    o2 = round_trip(o)
    assert_equal RactorCopyNode, o2.class
    assert_equal [1, "a"], o2.value
    refute o.equal?(o2)
  end

  def test_struct
    pt = RactorCopyPoint.new(1, [2])
    pt2 = round_trip(pt)
    assert_equal RactorCopyPoint, pt2.class
    assert_equal pt, pt2
  end

  def test_range
    assert_equal (1...10), round_trip(1...10)
    assert_equal ("a".."c"), round_trip("a".."c")
  end

  def test_hash_default_value
    h = Hash.new(7)
    h[:a] = 1
    h2 = round_trip(h)
    assert_equal 1, h2[:a]
    assert_equal 7, h2[:missing]
  end

  def test_exception
    e = ArgumentError.new("bad")
    e2 = round_trip(e)
    assert_equal ArgumentError, e2.class
    assert_equal "bad", e2.message
  end

  def test_time
    t = Time.at(1_700_000_000, 123_456)
    t2 = round_trip(t)
    assert_equal Time, t2.class
    assert_equal t, t2
    assert_equal 123_456, t2.usec
    assert round_trip(Time.at(0).utc).utc?
  end

  # a Method keeps its receiver and body where only its type sees them: not data to copy
  def test_method_objects_are_not_copied
    # CRuby 4.0's Ractor::Error (3.1: TypeError "allocator undefined for Method")
    e = assert_raise(Ractor::Error, TypeError) { round_trip(1.method(:+)) }
    assert_equal "can not copy Method object.", e.message if mnrb? || RUBY_VERSION >= "4.0"
    e = assert_raise(Ractor::Error, TypeError) { round_trip(Integer.instance_method(:+)) }
    assert_equal "can not copy UnboundMethod object.", e.message if mnrb? || RUBY_VERSION >= "4.0"
  end

  def test_classes_and_modules_travel_by_name
    assert_same RactorCopyNode, round_trip(RactorCopyNode)
    assert_same Comparable, round_trip(Comparable)
    assert_same String, round_trip(String)
  end

  def test_the_receiver_gets_its_own_copy_of_each_message
    r = Ractor.new { a = Ractor.receive; b = Ractor.receive; a.equal?(b) }
    s = "same"
    r << s << s
    assert_equal false, r.take
  end
end

class RactorMoveTest < MnTest::Case
  def test_send_move_delivers_and_leaves_a_moved_object
    r = Ractor.new { Ractor.receive }
    a = ["abc", [1]]
    r.send(a, move: true)
    assert_equal ["abc", [1]], r.take
    e = assert_raise(Ractor::MovedError) { a.size }
    assert_equal "can not send any methods to a moved object", e.message
    assert_raise(Ractor::MovedError) { a.inspect }
  end

  def test_the_whole_graph_is_moved
    r = Ractor.new { Ractor.receive }
    inner = { k: "v" }
    r.send([inner], move: true)
    r.take
    assert_raise(Ractor::MovedError) { inner.keys }
  end

  def test_yield_move
    r = Ractor.new { s = "moved"; Ractor.yield(s, move: true); begin; s.size; rescue Ractor::MovedError; :moved; end }
    assert_equal "moved", r.take
    assert_equal :moved, r.take
  end

  def test_moved_object_class
    assert_equal BasicObject, Ractor::MovedObject.superclass
  end

  # CRuby 3.1 moves the object even when the send is then refused
  def test_a_refused_move_leaves_the_object
    mnrb_only
    r = Ractor.new { }
    r.take
    s = "kept"
    assert_raise(Ractor::ClosedError) { r.send(s, move: true) }
    assert_equal "kept", s
  end
end

class RactorShareableTest < MnTest::Case
  def test_shareable_p
    assert Ractor.shareable?(1)
    assert Ractor.shareable?(:s)
    assert Ractor.shareable?(nil)
    assert Ractor.shareable?(String)
    assert Ractor.shareable?("s".freeze)
    refute Ractor.shareable?("s")
    refute Ractor.shareable?([1])
    assert Ractor.shareable?([1].freeze)
    refute Ractor.shareable?(["s"].freeze)
    assert Ractor.shareable?(Ractor.current)
  end

  def test_make_shareable_freezes_deeply
    obj = [1, "a", { b: ["c"] }]
    assert_same obj, Ractor.make_shareable(obj)
    assert obj.frozen?
    assert obj[1].frozen?
    assert obj[2].frozen?
    assert obj[2][:b][0].frozen?
    assert Ractor.shareable?(obj)
  end

  def test_make_shareable_handles_cycles
    a = []
    a << a
    Ractor.make_shareable(a)
    assert Ractor.shareable?(a)
  end

  def test_make_shareable_copy_leaves_the_original
    obj = ["a"]
    copy = Ractor.make_shareable(obj, copy: true)
    assert Ractor.shareable?(copy)
    refute obj.frozen?
    assert_equal obj, copy
  end
end

class RactorCopyNode
  attr_reader :value
  def initialize(value)
    @value = value
  end
end

class RactorCopyString < String; end
class RactorCopyArray < Array; end
class RactorCopyHash < Hash; end
RactorCopyPoint = Struct.new(:x, :y)
