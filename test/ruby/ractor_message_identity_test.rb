# What an object keeps when it crosses ractors (issue 20, "Messages"): its singleton methods and
# extended modules (CRuby copies with #clone; CRuby 4.0 keeps them on a move too), and what a moved
# object leaves behind (CRuby 4.0: a Ractor::MovedObject that no method, C method or VM fast path
# reads). Expected values from CRuby 3.1.2 and 3.3.8; where 4.0 differs (move keeps a singleton
# class, a moved Array/String/Hash is no longer one), checked on mnrb or RUBY_VERSION >= 4.0.
# mnrb's own differences (docs/DESIGN.md "Messages between heaps"): mnrb_only.
class RactorSingletonCopyTest < MnTest::Case
  def ractor4? = mnrb? || RUBY_VERSION >= "4.0"

  module Greeting
    def greet = "hello from #{name}"
  end

  module Base
    def base = :base
  end

  module Outer
    include Base
    def outer = :outer
  end

  def test_a_copied_object_keeps_its_singleton_methods
    o = Object.new
    def o.answer = 42
    def o.twice(x) = x * 2
    assert_equal [42, 8], Ractor.new(o) { |x| [x.answer, x.twice(4)] }.take
    assert_equal 42, o.answer       # the sender's object is untouched
  end

  def test_singleton_methods_of_strings_and_arrays
    s = +"str"
    def s.shout = upcase
    a = [1]
    def a.total = sum
    assert_equal ["STR", 3], Ractor.new(s, a) { |x, y| y << 2; [x.shout, y.total] }.take
  end

  def test_a_frozen_object_keeps_them_and_stays_frozen
    s = +"f"
    def s.m = upcase
    s.freeze
    assert_equal [true, "F"], Ractor.new(s) { |x| [x.frozen?, x.m] }.take
  end

  def test_extended_modules_in_their_order
    o = Object.new
    def o.name = "o"
    o.extend(Greeting)
    o.extend(Outer)
    got = Ractor.new(o) { |x| [x.greet, x.outer, x.base, x.singleton_class.ancestors[1, 3]] }.take
    assert_equal ["hello from o", :outer, :base, [Outer, Base, Greeting]], got
  end

  def test_singleton_attr_accessor
    o = Object.new
    class << o
      attr_accessor :count
    end
    o.count = 5
    assert_equal 6, Ractor.new(o) { |x| x.count += 1 }.take
  end

  def test_a_singleton_method_from_a_block_using_outer_variables
    s = "outer"
    o = Object.new
    o.define_singleton_method(:m) { s }
    got = Ractor.new(o) { |x| begin; x.m; rescue => e; [e.class, e.message]; end }.take
    assert_equal [RuntimeError, "defined with an un-shareable Proc in a different Ractor"], got
  end

  def test_the_same_object_twice_in_a_message
    o = Object.new
    def o.m = :m
    got = Ractor.new([o, o]) { |a| [a[0].equal?(a[1]), a[1].m] }.take
    assert_equal [true, :m], got
  end

  def test_a_moved_object_keeps_its_singleton_class
    o = Object.new
    def o.m = :obj
    s = +"str"
    def s.m = :str
    r = Ractor.new { 2.times.map { v = Ractor.receive; [v.respond_to?(:m) ? v.m : nil, v.singleton_methods] } }
    if ractor4?
      r.send(o, move: true)
      r.send(s, move: true)
      assert_equal [[:obj, [:m]], [:str, [:m]]], r.take
      assert_raise(Ractor::MovedError) { o.m }
    else                 # CRuby 3.x: TypeError "can't create instance of singleton class"
      assert_raise(TypeError) { r.send(o, move: true) }
      r.send(1); r.send(2)
      assert_equal [[nil, []], [nil, []]], r.take
    end
  end

  # CRuby shares the class object; mnrb's named classes travel by name, anonymous ones by
  # description, one class per receiver (ractor_anonymous_class_test; docs/DESIGN.md)
  def test_an_instance_of_an_anonymous_class
    c = Class.new
    assert_equal true, Ractor.new(c, c.new) { |k, x| x.class == k }.take
    if mnrb?
      o = Object.new
      o.extend(Module.new)
      e = assert_raise(Ractor::Error) { Ractor.new(o) { |x| x }.take }
      assert(/\Acan not copy an object extended with an anonymous module \(#<Module:0x\h+>\)\z/.match?(e.message), e.message)
    end
  end
end

class RactorMovedObjectTest < MnTest::Case
  def ractor4? = mnrb? || RUBY_VERSION >= "4.0"

  def setup
    @echo = Ractor.new { loop { Ractor.yield Ractor.receive } }
  end

  def teardown
    @echo.send(:stop) rescue nil
  end

  # CRuby 3.3.8 corrupts a moved embedded Hash ({a: 1} arrives as {a: false}) and drops an Array's
  # ivars on a move; 4.0's bootstraptest checks both ("moved objects being corrupted if embeded
  # (Hash)", "move object with generic ivar"), 3.1.2 gets them right
  def cruby_move_bugs? = !mnrb? && RUBY_VERSION.start_with?("3.3")

  def moved(obj)
    @echo.send(obj, move: true)
    @echo.take
  end

  def test_every_method_raises_moved_error
    a = [1, 2]
    assert_equal [1, 2], moved(a)
    %i[size inspect to_s first frozen? class].each do |m|
      e = assert_raise(Ractor::MovedError) { a.send(m) }
      assert_equal "can not send any methods to a moved object", e.message
    end
    assert_raise(Ractor::MovedError) { a[0] }          # the VM's index fast path
    assert_raise(Ractor::MovedError) { a[0] = 1 }
    assert_raise(Ractor::MovedError) { a << 3 }
    assert_raise(Ractor::MovedError) { a == [1, 2] }
    assert_equal true, Ractor::MovedObject === a
  end

  def test_strings_and_hashes
    s = +"hello"
    h = { a: 1 }
    got = moved([s, h])
    assert_equal ["hello", { a: 1 }], got unless cruby_move_bugs?
    assert_raise(Ractor::MovedError) { s.size }
    assert_raise(Ractor::MovedError) { s + "x" }
    assert_raise(Ractor::MovedError) { h[:a] }
    assert_raise(Ractor::MovedError) { h.size }
  end

  # CRuby 4.0's bootstraptest "moved arrays/strings/hashes can't be used"; CRuby 3.x read them as
  # empty
  def test_c_methods_given_a_moved_object
    a = [1]
    s = +"str"
    h = { a: 1 }
    moved([a, s, h])
    if ractor4?
      e = assert_raise(TypeError) { [].concat(a) }
      assert_equal "no implicit conversion of Ractor::MovedObject into Array", e.message
      assert_raise(TypeError) { "".replace(s) }
      assert_raise(TypeError) { {}.merge(h) }
      assert_raise(TypeError) { [2] + a }
      assert_raise(TypeError) { "x" + s }
    else
      assert_equal [], [].concat(a)
      assert_equal "", "".replace(s)
    end
  end

  def test_instance_variables_and_subclasses_cross_and_leave
    a = [1]
    a.instance_variable_set(:@meta, [2])
    got = moved(a)
    assert_equal [[1], [2]], [got, got.instance_variable_get(:@meta)] unless cruby_move_bugs?
    assert_raise(Ractor::MovedError) { a.instance_variable_get(:@meta) }
  end

  def test_a_moved_array_iterated_by_its_sender
    a = [[1], [2], [3]]
    seen = []
    begin
      a.each do |x|
        seen << x
        @echo.send(a, move: true) if seen.size == 1
      end
    rescue Ractor::MovedError        # mnrb's Array#each is Ruby: its next a[i] raises
      raise unless mnrb?
    end
    assert_equal [[1], [2], [3]], @echo.take
    assert_equal 1, seen.size        # CRuby 3.x: the moved array reads as empty, the loop ends
  end

  def test_sending_a_moved_object_again
    a = [1]
    r = (1..2).to_a        # a Range keeps its type when moved: its class says it was
    moved([a, 1..2])
    e = assert_raise(TypeError) { @echo.send(a) }
    assert_equal "allocator undefined for Ractor::MovedObject", e.message
    if ractor4?          # CRuby 4.0 moves the husk along (bootstraptest L2199); 3.x: TypeError
      r2 = Ractor.new { x = Ractor.receive; [x.size, Ractor::MovedObject === x[0]] }
      r2.send([a], move: true)
      assert_equal [1, true], r2.take
    else
      assert_raise(TypeError) { @echo.send([a], move: true) }
    end
    assert_equal [1], moved([1])     # the echo ractor still answers
    assert_equal [1, 2], r
  end

  def test_c_code_holding_a_string_that_its_block_moves
    s = +"aaaa"
    begin        # mnrb's gsub read the string before the block: "bbbb"; CRuby checks it after
      assert_equal "bbbb", s.gsub(/a/) { @echo.send(s, move: true) unless Ractor::MovedObject === s; "b" }
    rescue RuntimeError => e
      assert_equal "string modified", e.message
    end
    assert_equal "aaaa", @echo.take
    GC.start
  end

  def test_frozen_parts_stay
    f = "frozen".freeze
    assert_equal ["frozen", [1]], moved([f, [1]])
    assert_equal "frozen", f
  end
end
