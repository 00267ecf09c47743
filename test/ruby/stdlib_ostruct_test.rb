# require "ostruct" as CRuby's: attributes from a hash or by assignment, [] and []=, nil for an
# unset attribute, respond_to?, to_h (with a block), each_pair, ==, dig, delete_field (NameError
# or the block's value when missing), freezing, and inspect as "#<OpenStruct a=1>".
require "ostruct"

class StdlibOstructTest < MnTest::Case
  class Sub < OpenStruct; end

  def test_attributes_from_hash_and_assignment
    o = OpenStruct.new(a: 1, "b" => 2)
    o.c = 3
    o[:d] = 4
    o["e"] = 5
    assert_equal [1, 2, 3, 4, 5], [o.a, o.b, o.c, o[:d], o["e"]]
    assert_nil o.missing
  end

  def test_respond_to
    o = OpenStruct.new(a: 1)
    assert o.respond_to?(:a)
    assert o.respond_to?(:a=)
    refute o.respond_to?(:zz)
  end

  def test_attributes_override_object_methods
    o = OpenStruct.new(object_id: 4, zip: 5)
    assert_equal 4, o.object_id
    assert_equal 5, o.zip
  end

  def test_unknown_method_with_arguments
    assert_raise(NoMethodError) { OpenStruct.new.zz(1) }
  end

  def test_to_h_each_pair_dig
    o = OpenStruct.new(a: 1, c: [1, { x: 2 }])
    assert_equal({ a: 1, c: [1, { x: 2 }] }, o.to_h)
    assert_equal({ "a" => 1, "c" => [1, { x: 2 }] }, o.to_h { |k, v| [k.to_s, v] })
    assert_equal [[:a, 1], [:c, [1, { x: 2 }]]], o.each_pair.to_a
    assert_same o, o.each_pair {}
    assert_equal 2, o.dig(:c, 1, :x)
    assert_nil o.dig(:nope, 1)
  end

  def test_equality
    assert_equal OpenStruct.new(a: 1), OpenStruct.new(a: 1)
    assert OpenStruct.new(a: 1) == OpenStruct.new(a: 1.0)
    refute OpenStruct.new(a: 1).eql?(OpenStruct.new(a: 1.0))
    refute OpenStruct.new(a: 1) == OpenStruct.new(a: 2)
  end

  def test_delete_field
    o = OpenStruct.new(a: 1, b: 2)
    assert_equal 1, o.delete_field(:a)
    refute o.respond_to?(:a)
    assert_nil o.a
    assert_equal 9, o.delete_field(:nope) { 9 }
    e = assert_raise(NameError) { o.delete_field(:nope) }
    assert_include e.message, "nope"
    assert_equal({ b: 2 }, o.to_h)
  end

  def test_inspect
    assert_equal "#<OpenStruct a=1, b=\"s\">", OpenStruct.new(a: 1, b: "s").inspect
    assert_equal "#<OpenStruct>", OpenStruct.new.to_s
    assert_equal "#<StdlibOstructTest::Sub x=1>", Sub.new(x: 1).inspect
    r = OpenStruct.new
    r.me = r
    assert_equal "#<OpenStruct me=#<OpenStruct ...>>", r.inspect
  end

  def test_frozen
    f = OpenStruct.new(a: 1).freeze
    assert_raise(FrozenError) { f.a = 2 }
    assert_raise(FrozenError) { f[:a] = 2 }
    assert_equal 1, f.a
  end

  def test_dup_is_independent
    o = OpenStruct.new(a: 1)
    d = o.dup
    d.a = 2
    assert_equal [1, 2], [o.a, d.a]
  end
end
