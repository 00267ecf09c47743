# String#crypt as CRuby's: crypt(3) from the C library with the salt as the setting, CRuby's
# argument checks and messages, a new binary String. Expected values are CRuby 3.1's (this file
# passes there too) on Debian's libxcrypt.

class StringCryptTest < MnTest::Case
  def test_traditional_des
    assert_equal "abNANd1rDfiNc", "secret".crypt("ab")
    assert_equal "abNANd1rDfiNc", "secret".crypt("abXYZ")   # two bytes of salt are used
    assert_equal "abmF1QH4PEr.E", "".crypt("ab")
  end

  def test_modular_settings
    assert_equal "$1$abc$iCQ2D3nhptRYi27fDYv2s1", "secret".crypt("$1$abc$")
    assert_equal "$6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77vwPZN.Pq.H91p5hVO1",
                 "secret".crypt("$6$saltsalt$")
    h = "secret".crypt("$6$saltsalt$")
    assert_equal h, "secret".crypt(h)        # the usual check of a stored hash
    assert h != "Secret".crypt(h)
  end

  def test_rejected_setting_gives_the_failure_token
    assert_equal "*0", "secret".crypt("$9$")
    assert_equal "*0", "secret".crypt("!!")
  end

  def test_short_salt
    ["a", "", "a\0b", "\0bc"].each do |salt|
      e = assert_raise(ArgumentError) { "secret".crypt(salt) }
      assert_equal "salt too short (need >=2 bytes)", e.message
    end
  end

  def test_null_byte_in_receiver
    e = assert_raise(ArgumentError) { "sec\0ret".crypt("ab") }
    assert_equal "string contains null byte", e.message
  end

  def test_salt_conversion
    e = assert_raise(TypeError) { "secret".crypt(12) }
    assert_equal "no implicit conversion of Integer into String", e.message
    salt = Object.new
    def salt.to_str = "ab"
    assert_equal "abNANd1rDfiNc", "secret".crypt(salt)
  end

  def test_result_is_a_new_binary_string
    s = "secret".freeze
    r = s.crypt("ab")
    assert_equal Encoding::ASCII_8BIT, r.encoding
    assert !r.frozen?
    assert_equal "secret", s
  end

  def test_in_threads_and_a_ractor
    expect = "secret".crypt("$6$saltsalt$")
    ts = 4.times.map { Thread.new { 20.times.map { "secret".crypt("$6$saltsalt$") }.uniq } }
    assert_equal [[expect]] * 4, ts.map(&:value)
    if defined?(Ractor) && Ractor.respond_to?(:new)
      r = Ractor.new { "secret".crypt("$6$saltsalt$") }
      assert_equal expect, (r.respond_to?(:value) ? r.value : r.take)
    end
  end
end
