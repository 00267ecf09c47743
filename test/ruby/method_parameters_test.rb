# Method#arity / #parameters, UnboundMethod's and Proc's, with keyword arguments, as CRuby answers
# them (mruby patch 0065): a required keyword is [:keyreq, name] and counts one more required
# argument; an optional one is [:key, name], **kw [:keyrest, kw]; required keywords are listed
# before optional ones (CRuby's order, whatever the declaration's); optional keywords or **kw make
# a method's arity variable. A proc's arity ignores optional arguments and its required ones are
# :opt; Proc#parameters(lambda:) (CRuby 3.2) lists it either way. C methods: [] / [[:req]] for
# attribute readers / writers, [[:rest]] for the others (mruby keeps no finer signature).
# Anonymous parameters follow CRuby 3.2+ ([:rest, :*]; 3.1 had no name).

class MethodParametersTest < MnTest::Case
  class Sample
    attr_accessor :x
    def all(a, b = 1, *r, c, k:, o: 2, **kw, &blk) = nil
    def kreq(k:) = nil
    def kopt(o: 1) = nil
    def req_kreq(a, k:) = nil
    def krest(**kw) = nil
    def req_krest(a, **kw) = nil
    def opt_first(a, o: 1, k:) = nil
    def two_req(k1:, k2:, o1: 1) = nil
    def rest_kreq(*r, k:) = nil
    def kreq_krest(k:, **kw) = nil
    def blk(&b) = nil
    define_method(:dm) { |a, k:, o: 1| }
  end

  def params(name) = Sample.instance_method(name).parameters
  def arity(name) = Sample.instance_method(name).arity

  def test_keyword_parameters_have_their_names_and_kinds
    assert_equal [[:req, :a], [:opt, :b], [:rest, :r], [:req, :c], [:keyreq, :k], [:key, :o],
                  [:keyrest, :kw], [:block, :blk]], params(:all)
    assert_equal [[:keyreq, :k]], params(:kreq)
    assert_equal [[:key, :o]], params(:kopt)
    assert_equal [[:req, :a], [:keyreq, :k]], params(:req_kreq)
    assert_equal [[:keyrest, :kw]], params(:krest)
    assert_equal [[:req, :a], [:keyrest, :kw]], params(:req_krest)
    assert_equal [[:keyreq, :k1], [:keyreq, :k2], [:key, :o1]], params(:two_req)
    assert_equal [[:rest, :r], [:keyreq, :k]], params(:rest_kreq)
    assert_equal [[:keyreq, :k], [:keyrest, :kw]], params(:kreq_krest)
    assert_equal [[:block, :b]], params(:blk)
  end

  def test_required_keywords_are_listed_first
    assert_equal [[:req, :a], [:keyreq, :k], [:key, :o]], params(:opt_first)
  end

  def test_arity_counts_required_keywords_as_one_argument
    assert_equal(-4, arity(:all))
    assert_equal 1, arity(:kreq)
    assert_equal 2, arity(:req_kreq)
    assert_equal 2, arity(:opt_first)
    assert_equal 1, arity(:two_req)
    assert_equal(-2, arity(:rest_kreq))
    assert_equal 1, arity(:kreq_krest)   # a required keyword: **kw adds nothing
  end

  def test_optional_keywords_or_keyrest_make_arity_variable
    assert_equal(-1, arity(:kopt))
    assert_equal(-1, arity(:krest))
    assert_equal(-2, arity(:req_krest))
    assert_equal 0, arity(:blk)
  end

  def test_method_and_unbound_method_agree
    obj = Sample.new
    %i[all kreq kopt req_kreq krest opt_first dm].each do |name|
      assert_equal arity(name), obj.method(name).arity, name.to_s
      assert_equal params(name), obj.method(name).parameters, name.to_s
    end
  end

  def test_define_method_takes_lambda_rules
    assert_equal [[:req, :a], [:keyreq, :k], [:key, :o]], params(:dm)
    assert_equal 2, arity(:dm)
  end

  def test_lambdas
    assert_equal [[:req, :a], [:keyreq, :k]], ->(a, k:) {}.parameters
    assert_equal 2, ->(a, k:) {}.arity
    assert_equal(-2, ->(a, k: 1) {}.arity)
    assert_equal(-1, ->(**kw) {}.arity)
    assert_equal(-2, ->(x, **kw) {}.arity)
    assert_equal(-2, ->(x = 1, k:) {}.arity)
    assert_equal(-2, ->(*a, k:) {}.arity)
    assert_equal(-1, ->(k: 1) {}.arity)
  end

  def test_procs
    pr = proc { |a, b = 1, k:, o: 2, **kw, &b2| }
    assert_equal [[:opt, :a], [:opt, :b], [:keyreq, :k], [:key, :o], [:keyrest, :kw], [:block, :b2]],
                 pr.parameters
    assert_equal 2, pr.arity
    assert_equal 2, proc { |x, k:| }.arity
    assert_equal 1, proc { |k:| }.arity
    assert_equal 0, proc { |**k| }.arity
    assert_equal 0, proc { |k: 1| }.arity
    assert_equal 1, proc { |x, **k| }.arity
    assert_equal(-2, proc { |*a, k:| }.arity)
    assert_equal 1, proc { |x, y = 1| }.arity
  end

  def test_destructuring_parameters_have_no_name
    assert_equal [[:opt, nil], [:opt, :c]], proc { |(a, b), c| }.parameters
    assert_equal [[:req], [:req, :c]], lambda { |(a, b), c| }.parameters
  end

  def test_proc_parameters_lambda_keyword
    skip "Proc#parameters(lambda:) is CRuby 3.2+" unless RUBY_VERSION >= "3.2"
    assert_equal [[:req, :x], [:opt, :y], [:keyreq, :k]], proc { |x, y = 1, k:| }.parameters(lambda: true)
    assert_equal [[:opt, :x], [:opt, :y], [:keyreq, :k]], lambda { |x, y = 1, k:| }.parameters(lambda: false)
    assert_equal [[:opt, :x]], proc { |x| }.parameters(lambda: nil)
  end

  def test_anonymous_parameters_named_as_in_3_2
    skip "3.1 gives anonymous parameters no name" unless RUBY_VERSION >= "3.2"
    m = Class.new { def f(*, **, &) = nil }.instance_method(:f)
    assert_equal [[:rest, :*], [:keyrest, :**], [:block, :&]], m.parameters
    assert_equal(-1, m.arity)
  end

  def test_attribute_methods
    assert_equal [], params(:x)
    assert_equal 0, arity(:x)
    assert_equal [[:req]], params(:x=)
    assert_equal 1, arity(:x=)
  end

  def test_c_methods
    assert_equal [[:rest]], [].method(:push).parameters
    assert_equal(-1, [].method(:push).arity)
    assert_equal(-1, 1.method(:to_s).arity)
  end
end
