# CRuby's implicit to_hash: a Hash argument may be any object answering to_hash, in a keyword
# splat (`m(**obj)`, `{**obj}`), Hash#merge / merge! / update / replace, Hash[obj], Kernel#Hash
# and the subset comparisons; a to_hash giving something else raises CRuby's TypeError
# "can't convert Foo to Hash (Foo#to_hash gives Integer)", an object without one
# "no implicit conversion of Foo into Hash".
# mnrb converts in mruby's common helpers (patches/mruby/0076-cruby-compat.patch).

class ImplicitToHashTest < MnTest::Case
  class H
    def to_hash = {a: 1}
  end

  class Bad
    def to_hash = 42
  end

  class Plain; end

  class Ghost   # answers through method_missing, and says so
    def method_missing(name, *args) = name == :to_hash ? {g: 1} : super
    def respond_to_missing?(name, priv = false) = name == :to_hash || super
  end

  def kw(**k) = k

  def bad_message = "can't convert #{Bad} to Hash (#{Bad}#to_hash gives Integer)"

  def test_keyword_splat_of_an_object
    assert_equal({a: 1}, kw(**H.new))
    assert_equal({a: 1, b: 2}, kw(**H.new, b: 2))
    assert_equal({g: 1}, kw(**Ghost.new))
    assert_equal({a: 1}, proc { |**k| k }.call(**H.new))
  end

  def test_hash_literal_splat_of_an_object
    assert_equal({a: 1}, {**H.new})
    assert_equal({z: 0, a: 1}, {z: 0, **H.new})
  end

  def test_merge_update_replace_take_to_hash
    assert_equal({b: 2, a: 1}, {b: 2}.merge(H.new))
    assert_equal({b: 2, a: 1, c: 3}, {b: 2}.merge(H.new, {c: 3}))
    assert_equal({a: 2}, {a: 1}.merge(H.new) { |_k, x, y| x + y })
    assert_equal({b: 2, a: 1}, {b: 2}.update(H.new))
    assert_equal({a: 2}, {a: 1}.merge!(H.new) { |_k, x, y| x + y })
    assert_equal({a: 1}, {b: 2}.replace(H.new))
  end

  def test_hash_brackets_and_kernel_hash_take_to_hash
    assert_equal({a: 1}, Hash[H.new])
    assert_equal({a: 1}, Hash(H.new))
  end

  def test_subset_comparisons_take_to_hash
    assert_equal true, {a: 1} <= H.new
    assert_equal true, {a: 1} >= H.new
    assert_equal false, {a: 1} < H.new
    assert_equal true, {a: 1, b: 2} > H.new
  end

  def test_to_hash_giving_another_class
    [-> { kw(**Bad.new) }, -> { {**Bad.new} }, -> { {}.merge(Bad.new) }, -> { {}.update(Bad.new) },
     -> { {}.replace(Bad.new) }, -> { Hash[Bad.new] }, -> { {}.merge(Bad.new) { } }].each do |f|
      e = assert_raise(TypeError) { f.call }
      assert_equal bad_message, e.message
    end
  end

  def test_object_without_to_hash
    e = assert_raise(TypeError) { {}.merge(Plain.new) }
    assert_equal "no implicit conversion of #{Plain} into Hash", e.message
    e = assert_raise(TypeError) { kw(**Plain.new) }
    assert_equal "no implicit conversion of #{Plain} into Hash", e.message
    e = assert_raise(TypeError) { {} <= Plain.new }
    assert_equal "no implicit conversion of #{Plain} into Hash", e.message
    e = assert_raise(TypeError) { {}.merge(nil) }
    assert_equal "no implicit conversion of nil into Hash", e.message
    e = assert_raise(ArgumentError) { Hash[Plain.new] }
    assert_equal "odd number of arguments for Hash", e.message
  end

  def test_a_real_hash_is_not_converted
    h = {a: 1}
    def h.to_hash = raise("called")
    assert_equal({a: 1}, kw(**h))
    assert_equal({a: 1}, {}.merge(h))
  end
end
