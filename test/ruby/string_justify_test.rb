# String#ljust, #rjust and #center: the width converts with to_int before the pad string is looked
# at (CRuby's TypeErrors otherwise), and a receiver already as wide comes back as a plain String.
# Expected values are CRuby 3.1's; this file passes there too.

class StringJustifyTest < MnTest::Case
  class Width
    def initialize(n) = @n = n
    def to_int = @n
  end

  class Sub < String; end

  def test_width_with_to_int
    assert_equal "ab----", "ab".ljust(Width.new(6), "-")
    assert_equal "xyxyab", "ab".rjust(Width.new(6), "xy")
    assert_equal "  ab  ", "ab".center(Width.new(6))
  end

  def test_float_width_is_truncated
    assert_equal "ab--", "ab".ljust(4.9, "-")
    assert_equal "--ab", "ab".rjust(4.2, "-")
    assert_equal "-ab-", "ab".center(4.99, "-")
  end

  def test_nil_width
    %i[ljust rjust center].each do |m|
      e = assert_raise(TypeError) { "ab".send(m, nil) }
      assert_equal "no implicit conversion from nil to integer", e.message
    end
  end

  def test_string_width
    %i[ljust rjust center].each do |m|
      e = assert_raise(TypeError) { "ab".send(m, "3") }
      assert_equal "no implicit conversion of String into Integer", e.message
    end
  end

  def test_width_is_checked_before_the_pad_string
    e = assert_raise(TypeError) { "ab".ljust("3", 5) }
    assert_equal "no implicit conversion of String into Integer", e.message
    e = assert_raise(TypeError) { "ab".ljust(5, 5) }
    assert_equal "no implicit conversion of Integer into String", e.message
  end

  def test_narrow_width_gives_a_plain_string_copy
    s = Sub.new("abc")
    %i[ljust rjust center].each do |m|
      r = s.send(m, 2)
      assert_equal String, r.class
      assert_equal "abc", r
      assert !r.equal?(s)
    end
    assert_equal String, Sub.new("ab").ljust(4).class
  end

  def test_negative_width
    assert_equal "abc", "abc".ljust(-5)
    assert_equal "abc", "abc".center(Width.new(-1))
  end
end
