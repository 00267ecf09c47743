# Methods of an alias (alias, alias_method) answer as the aliased method: arity, parameters, owner,
# name, the call itself, and its proc. (mnrb crashed asking an alias of a Ruby method its arity.)
# Expected values are CRuby 3.1's (this file passes there too).
class AliasMethodTest < MnTest::Case
  class Foo
    def m(a, b = 1, *r, &blk) = [a, b, r]
    def two(a, b) = a + b
    alias n m
    alias_method :o, :m
    alias plus two
  end

  def test_arity_of_an_alias
    assert_equal(-2, Foo.instance_method(:n).arity)
    assert_equal(-2, Foo.instance_method(:o).arity)
    assert_equal 2, Foo.instance_method(:plus).arity
    assert_equal 2, Foo.new.method(:plus).arity
  end

  def test_parameters_of_an_alias
    assert_equal [[:req, :a], [:opt, :b], [:rest, :r], [:block, :blk]], Foo.instance_method(:n).parameters
    assert_equal [[:req, :a], [:req, :b]], Foo.new.method(:plus).parameters
  end

  def test_an_alias_calls_and_inspects_as_the_method
    assert_equal [1, 1, []], Foo.new.n(1)
    assert_equal 5, Foo.new.method(:plus).to_proc.call(2, 3)
    assert_equal Foo, Foo.instance_method(:o).owner
    assert_include Foo.new.method(:plus).to_proc.inspect, "#<Proc:"
  end

  def test_an_alias_of_a_core_method
    String.class_eval { alias_method :mnrb_test_lines, :each_line }
    m = String.instance_method(:mnrb_test_lines)
    assert_kind_of Integer, m.arity
    assert_kind_of Array, m.parameters
    assert_equal ["a\n", "b"], "a\nb".mnrb_test_lines.to_a
  ensure
    String.class_eval { remove_method :mnrb_test_lines }
  end

  # CRuby 3.0+: alias_method answers the new name (mnrb answered the class)
  def test_alias_method_answers_the_new_name
    answers = []
    Class.new(Foo) { answers << alias_method(:o2, :m) << alias_method(:o3, :two) }
    assert_equal [:o2, :o3], answers
  end

  # method_added hears attr_reader/attr_writer/attr_accessor's methods, and alias_method's
  def test_method_added_hears_accessors_and_aliases
    added = []
    Class.new do
      define_singleton_method(:method_added) { |m| added << m }
      attr_reader :r
      attr_accessor :a
      def d; end
      alias_method :e, :d
    end
    assert_equal [:r, :a, :a=, :d, :e], added
  end
end
