# `it` names a block's only parameter, as in Ruby 3.4 and 4.0 (mruby patch 0207): a bare `it` in a
# block or lambda without parameters; `it(...)`, `it "x" do end`, `self.it`, a local variable
# named it, and `it` in a block with |params|, a method body or the top level keep their old
# meaning. CRuby 3.3 (and 3.1) read `it` as a method call, so this runs on mnrb and Ruby 3.4+;
# the expected values are 3.4's documented behaviour.
class ItBlockParamTest < MnTest::Case
  def setup
    skip "`it` is Ruby 3.4+" unless mnrb? || RUBY_VERSION >= "3.4"
  end

  def it(*args)
    [:method, *args]
  end

  def test_block_parameter
    assert_equal [2, 4, 6], [1, 2, 3].map { it * 2 }
    assert_equal [[1, 2]], [[1, 2]].map { it }              # the whole element, like |x|
    assert_equal 10, [1, 2, 3, 4].sum { it }
  end

  def test_lambda_and_proc
    assert_equal 1, lambda { it }.arity
    assert_equal 7, -> { it + 1 }.call(6)
    assert_equal :x, proc { it }.call(:x)
    assert_nil proc { it }.call
  end

  def test_nested_blocks_have_their_own
    assert_equal [[10, 20], [30]], [[1, 2], [3]].map { it.map { it * 10 } }
    got = []
    [1, 2].each { |x| [x * 10].each { got << it } }
    assert_equal [10, 20], got
  end

  def test_method_calls_stay
    assert_equal [:method], it
    assert_equal [:method, 1], it(1)
    assert_equal [[:method, "x"]], [0].map { |_| it("x") }
    assert_equal [[:method]], [5].map { |_| it }             # a block with parameters
    assert_equal [:method], self.it
    assert_equal [[:method, "y"]], [5].map { it "y" }        # with arguments: a call
  end

  def test_local_variable_wins
    it = 42
    assert_equal [42], [1].map { it }
  end
end
