# require "securerandom" as CRuby's: sizes and alphabets of hex, random_bytes, base64,
# urlsafe_base64, alphanumeric; a version-4 UUID; random_number's ranges by argument type.
# Values are random, so the checks are on shapes and bounds, and on every value of a small range
# showing up (a test that would fail with probability below 1e-30).
require "securerandom"

class StdlibSecureRandomTest < MnTest::Case
  def test_sizes
    assert_equal 32, SecureRandom.hex.size
    assert_match_ /\A\h{8}\z/, SecureRandom.hex(4)
    assert_equal 16, SecureRandom.random_bytes.bytesize
    assert_equal 5, SecureRandom.random_bytes(5).bytesize
    assert_equal Encoding::ASCII_8BIT, SecureRandom.random_bytes(2).encoding
    assert_equal 24, SecureRandom.base64.size
    assert_equal 4, SecureRandom.base64(3).size
    assert_equal "", SecureRandom.hex(0)
  end

  def test_urlsafe_base64
    assert_match_ /\A[A-Za-z0-9_-]{2}\z/, SecureRandom.urlsafe_base64(1)
    assert_match_ /\A[A-Za-z0-9_-]{2}==\z/, SecureRandom.urlsafe_base64(1, true)
  end

  def test_uuid_is_version_4
    20.times do
      assert_match_ /\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/, SecureRandom.uuid
    end
  end

  # Since CRuby 3.3 (Random::Formatter#uuid_v4/uuid_v7).
  def test_uuid_v4_and_v7
    skip "uuid_v7 is CRuby 3.3's" if RUBY_VERSION < "3.3"
    assert_match_ /\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/, SecureRandom.uuid_v4
    before = (Time.now.to_i - 1) * 1000
    v7 = SecureRandom.uuid_v7
    assert_match_ /\A\h{8}-\h{4}-7\h{3}-[89ab]\h{3}-\h{12}\z/, v7
    ms = v7.delete("-")[0, 12].to_i(16)
    assert ms >= before && ms <= (Time.now.to_i + 1) * 1000, "timestamp #{ms}"
  end

  def test_random_number_by_argument
    assert_equal [0, 1, 2], (1..300).map { SecureRandom.random_number(3) }.uniq.sort
    assert_equal [5, 6], (1..300).map { SecureRandom.random_number(5..6) }.uniq.sort
    assert_equal [5, 6], (1..300).map { SecureRandom.random_number(5...7) }.uniq.sort
    f = SecureRandom.random_number
    assert(f.is_a?(Float) && f >= 0 && f < 1)
    assert SecureRandom.random_number(2.5) < 2.5
    assert_kind_of Float, SecureRandom.random_number(-1)
    assert SecureRandom.random_number(2**70) < 2**70
  end

  def test_alphanumeric
    assert_equal 16, SecureRandom.alphanumeric.size
    assert_match_ /\A[A-Za-z0-9]{30}\z/, SecureRandom.alphanumeric(30)
  end

  def test_negative_size
    e = assert_raise(ArgumentError) { SecureRandom.random_bytes(-1) }
    assert_equal "negative string size (or size too big)", e.message
  end

  def test_values_differ
    assert_equal 50, Array.new(50) { SecureRandom.hex }.uniq.size
  end

  def assert_match_(re, str)
    assert re.match?(str), "expected #{str.inspect} to match #{re.inspect}"
  end
end
