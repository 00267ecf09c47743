# Digest as CRuby's (MD5, SHA1, SHA256, SHA384, SHA512, SHA2) with the standard test vectors: class
# methods, the instance protocol (update, digest keeping the state, digest! resetting it, a String
# argument hashing only itself), encodings of the results, files, and the feature names CRuby has.
require "digest"
require "digest/md5"
require "digest/sha1"
require "digest/sha2"

class DigestTest < MnTest::Case
  ABC = {
    Digest::MD5 => "900150983cd24fb0d6963f7d28e17f72",
    Digest::SHA1 => "a9993e364706816aba3e25717850c26c9cd0d89d",
    Digest::SHA256 => "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    Digest::SHA384 => "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    Digest::SHA512 => "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd" \
                      "454d4423643ce80e2a9ac94fa54ca49f",
  }

  def test_hexdigest_of_abc
    ABC.each { |klass, hex| assert_equal hex, klass.hexdigest("abc"), klass.name }
  end

  def test_empty_and_long_inputs
    assert_equal "d41d8cd98f00b204e9800998ecf8427e", Digest::MD5.hexdigest("")
    assert_equal "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Digest::SHA256.hexdigest("")
    assert_equal "34aa973cd4c4daa4f61eeb2bdbad27316534016f", Digest::SHA1.hexdigest("a" * 1_000_000)
  end

  def test_digest_and_base64digest
    assert_equal ["900150983cd24fb0d6963f7d28e17f72"].pack("H*"), Digest::MD5.digest("abc")
    assert_equal Encoding::BINARY, Digest::MD5.digest("abc").encoding
    assert_equal Encoding::US_ASCII, Digest::MD5.hexdigest("abc").encoding
    assert_equal "kAFQmDzST7DWlj99KOF/cg==", Digest::MD5.base64digest("abc")
    assert_equal "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=", Digest::SHA256.base64digest("abc")
  end

  def test_incremental_updates
    d = Digest::SHA256.new
    d << "a"
    d.update("b") << "c"
    assert_equal ABC[Digest::SHA256], d.hexdigest
    assert_equal ABC[Digest::SHA256], d.to_s
    assert_equal ABC[Digest::SHA256], d.hexdigest, "digest keeps the state"
    assert_equal ABC[Digest::SHA256], d.hexdigest!
    assert_equal Digest::SHA256.hexdigest(""), d.hexdigest, "digest! resets"
  end

  def test_a_string_argument_hashes_only_that_string_and_resets
    d = Digest::MD5.new
    d << "xyz"
    assert_equal ABC[Digest::MD5], d.hexdigest("abc")
    assert_equal Digest::MD5.hexdigest(""), d.hexdigest
  end

  def test_reset_and_dup
    d = Digest::SHA1.new
    d << "ab"
    copy = d.dup
    d << "c"
    assert_equal ABC[Digest::SHA1], d.hexdigest
    assert_equal Digest::SHA1.hexdigest("ab"), copy.hexdigest
    assert_same d, d.reset
    assert_equal Digest::SHA1.hexdigest(""), d.hexdigest
  end

  def test_lengths_inspect_and_equality
    d = Digest::SHA256.new
    assert_equal [32, 32, 64], [d.digest_length, d.size, d.block_length]
    assert_equal 128, Digest::SHA512.new.block_length
    assert_equal "#<Digest::SHA256: #{Digest::SHA256.hexdigest("")}>", d.inspect
    assert d == Digest::SHA256.hexdigest("")
    assert d == Digest::SHA256.new
    refute d == Digest::SHA256.new.update("x")
  end

  def test_sha2_by_bit_length
    assert_equal ABC[Digest::SHA384], Digest::SHA2.new(384).update("abc").hexdigest
    assert_equal ABC[Digest::SHA256], Digest::SHA2.hexdigest("abc")
    assert_equal "#<Digest::SHA2:512 #{ABC[Digest::SHA512]}>", Digest::SHA2.new(512).update("abc").inspect
    e = assert_raise(ArgumentError) { Digest::SHA2.new(100) }
    assert_equal "unsupported bit length: 100", e.message
  end

  def test_class_hierarchy
    assert_equal Digest::Base, Digest::SHA256.superclass
    assert_equal Digest::Class, Digest::Base.superclass
    assert Digest::Class.include?(Digest::Instance)
    assert_equal Digest::MD5, Digest(:MD5)
  end

  def test_files
    path = "/tmp/mnrb_digest_test_#{Process.pid}"
    File.write(path, "abc")
    assert_equal ABC[Digest::SHA256], Digest::SHA256.file(path).hexdigest
    assert_equal ABC[Digest::MD5], Digest::MD5.new.file(path).hexdigest
    assert_raise(Errno::ENOENT) { Digest::MD5.file("#{path}.missing") }
  ensure
    File.delete(path) if File.exist?(path)
  end

  def test_bad_arguments
    e = assert_raise(TypeError) { Digest::SHA256.new.update(1) }
    assert_equal "no implicit conversion of Integer into String", e.message
    e = assert_raise(ArgumentError) { Digest::SHA256.digest }
    assert_equal "no data given", e.message
    assert_equal "ff01", Digest.hexencode("\xff\x01".b)
  end

  def test_in_a_ractor
    mnrb_only   # CRuby 3.1's digest classes are not usable from a non-main ractor
    assert_equal ABC[Digest::SHA1], Ractor.new { require "digest"; Digest::SHA1.hexdigest("abc") }.take
  end
end
