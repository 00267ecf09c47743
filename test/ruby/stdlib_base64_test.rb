# require "base64" as CRuby's: encode64's 60-column lines, strict forms without newlines, the
# lenient decode64 that skips junk and stops at "=", strict_decode64's ArgumentError
# "invalid base64" (length, alphabet, padding, non-zero unused bits), and the URL-safe alphabet
# with optional padding. Expected values are CRuby 3.1's (this file passes there too).
require "base64"

class StdlibBase64Test < MnTest::Case
  def test_encode64_wraps_at_60_columns_with_newlines
    assert_equal "YWJj\n", Base64.encode64("abc")
    assert_equal "", Base64.encode64("")
    assert_equal "YWFh" * 15 + "\nYWFhYWE=\n", Base64.encode64("a" * 50)
  end

  def test_strict_encode64_is_one_line
    assert_equal "YWFh" * 15 + "YWFhYWE=", Base64.strict_encode64("a" * 50)
    assert_equal "YQ==", Base64.strict_encode64("a")
  end

  def test_decode64_is_lenient
    assert_equal "abc", Base64.decode64("YWJj\n")
    assert_equal "ab", Base64.decode64("YWJ")
    assert_equal "a", Base64.decode64("YW=j")
    assert_equal "abc", Base64.decode64("Y W\tJ!j")
    assert_equal "", Base64.decode64("")
  end

  def test_decode64_result_is_binary
    assert_equal Encoding::ASCII_8BIT, Base64.decode64("YQ==").encoding
    assert_equal "\xFF\xFE".b, Base64.decode64("//4=")
  end

  def test_strict_decode64_accepts_only_canonical_input
    assert_equal "abc", Base64.strict_decode64("YWJj")
    assert_equal "ab", Base64.strict_decode64("YWI=")
    assert_equal "", Base64.strict_decode64("")
    ["YWJ", "YW=j", "YWJj\n", "YQ", "Y===", "YR==", "YWJ=", "!!!!", "YQ==YQ=="].each do |bad|
      e = assert_raise(ArgumentError) { Base64.strict_decode64(bad) }
      assert_equal "invalid base64", e.message, bad.inspect
    end
  end

  def test_urlsafe_alphabet_and_padding
    assert_equal "__4_YQ==", Base64.urlsafe_encode64("\xFF\xFE?a")
    assert_equal "__4_YQ", Base64.urlsafe_encode64("\xFF\xFE?a", padding: false)
    assert_equal "\xFF\xFE?a".b, Base64.urlsafe_decode64("__4_YQ")
    assert_equal "\xFF\xFE?a".b, Base64.urlsafe_decode64("__4_YQ==")
    assert_raise(ArgumentError) { Base64.urlsafe_decode64("YQ=a") }
  end

  def test_module_functions_also_mix_in
    host = Class.new { include Base64; def enc(s) = encode64(s) }.new
    assert_equal "YQ==\n", host.enc("a")
  end

  def test_round_trip_of_every_byte
    all = (0..255).to_a.pack("C*")
    assert_equal all, Base64.decode64(Base64.encode64(all))
    assert_equal all, Base64.strict_decode64(Base64.strict_encode64(all))
    assert_equal all, Base64.urlsafe_decode64(Base64.urlsafe_encode64(all, padding: false))
  end
end
