# Methods of CRuby 3.3/3.4 that programs call: Array#fetch_values and String#append_as_bytes (3.4:
# expectations from CRuby 3.4's documentation, not run on a CRuby here), Warning.categories (3.4) and
# Warning[:performance] (3.3), Regexp.linear_time? and Process.warmup (3.3), and ruby2_keywords as
# a name to call (Module, Proc, Hash). Checked on CRuby 3.3.8 and 3.1 where they exist there.
class Core34AdditionsTest < MnTest::Case
  def test_array_fetch_values
    skip "CRuby 3.4" unless [].respond_to?(:fetch_values)
    assert_equal [1, 3], [1, 2, 3].fetch_values(0, -1)
    assert_equal [1, :no], [1].fetch_values(0, 5) { :no }
    e = assert_raise(IndexError) { [1, 2, 3].fetch_values(0, 5) }
    assert_equal "index 5 outside of array bounds: -3...3", e.message
    assert_equal [], [].fetch_values
  end

  def test_string_append_as_bytes
    skip "CRuby 3.4" unless "".respond_to?(:append_as_bytes)
    s = +"é"
    assert_same s, s.append_as_bytes("\xff".b, 0x141, "x")
    assert_equal Encoding::UTF_8, s.encoding
    assert_equal [0xc3, 0xa9, 0xff, 0x41, 0x78], s.bytes
    assert_equal false, s.valid_encoding?
    e = assert_raise(TypeError) { +"".append_as_bytes(1.0) }
    assert_equal "wrong argument type Float (expected String or Integer)", e.message
    assert_raise(FrozenError) { "a".freeze.append_as_bytes("b") }
  end

  def test_warning_categories
    assert_equal false, Warning[:performance] if RUBY_VERSION >= "3.3"
    skip "CRuby 3.4" unless Warning.respond_to?(:categories)
    assert_equal [:deprecated, :experimental, :performance], Warning.categories.first(3)
  end

  def test_warning_performance_switch
    skip "CRuby 3.3" if RUBY_VERSION < "3.3"
    Warning[:performance] = true
    assert_equal true, Warning[:performance]
  ensure
    Warning[:performance] = false if RUBY_VERSION >= "3.3"
  end

  def test_regexp_linear_time
    skip "CRuby 3.3" unless Regexp.respond_to?(:linear_time?)
    assert_equal [true, false, false, true, true], [Regexp.linear_time?(/a+b/), Regexp.linear_time?(/(a)\1/),
      Regexp.linear_time?(/(?<n>a)\k<n>/), Regexp.linear_time?("a+"), Regexp.linear_time?(/\\1/)]
    assert_raise(TypeError) { Regexp.linear_time?(1) }
  end

  def test_process_warmup
    skip "CRuby 3.3" unless Process.respond_to?(:warmup)
    assert_equal true, Process.warmup
  end

  class Delegator
    def initialize(o) = @o = o
    ruby2_keywords def call(*args, &b) = @o.call(*args, &b)
  end

  def test_ruby2_keywords_names
    assert Module.method_defined?(:ruby2_keywords) || Module.private_method_defined?(:ruby2_keywords)
    assert_equal [1, 2], Delegator.new(->(a, b) { [a, b] }).call(1, 2)
    assert_nil Class.new { def m(*a) = a; r = ruby2_keywords(:m); break r }
    e = assert_raise(NameError) { Class.new { ruby2_keywords :nope } }
    assert_equal :nope, e.name
    pr = proc { |*a| a }
    assert_same pr, pr.ruby2_keywords
    assert_equal false, Hash.ruby2_keywords_hash?({})
    assert_equal "wrong argument type Integer (expected Hash)", assert_raise(TypeError) { Hash.ruby2_keywords_hash?(1) }.message
  end
end
