# OpenSSL (`require "openssl"`) as CRuby's, on the same libssl: digests, HMACs, PBKDF2 and AES
# ciphertexts equal CRuby's for the same inputs (the expected values below were printed by CRuby
# 3.3.8 with OpenSSL 3.0; the digests of "abc" are the FIPS 180 examples), CRuby's error classes
# and messages, RSA/EC keys, certificates made at test time by the `openssl` command, and TLS over
# loopback: an SSLServer thread and SSLSocket clients in this process, `openssl s_server` for
# Net::HTTP with use_ssl. No network beyond this machine.
require "openssl"
require "socket"
require "tmpdir"
require "net/http"

class OpenSSLTest < MnTest::Case
  KEY = "0123456789abcdef"
  IV = "fedcba9876543210"

  # a self-signed certificate for localhost and 127.0.0.1, made once per run
  def self.cert_dir
    @cert_dir ||= begin
      dir = Dir.mktmpdir("mnrb-openssl")
      ok = system("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                  "-nodes", "-keyout", "#{dir}/key.pem", "-out", "#{dir}/cert.pem", "-days", "2",
                  "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                  out: File::NULL, err: File::NULL)
      raise "openssl req failed" unless ok
      at_exit { File.delete("#{dir}/key.pem", "#{dir}/cert.pem"); Dir.rmdir(dir) }
      dir
    end
  end

  def cert_path = "#{OpenSSLTest.cert_dir}/cert.pem"
  def cert = OpenSSL::X509::Certificate.new(File.read(cert_path))
  def key = OpenSSL::PKey.read(File.read("#{OpenSSLTest.cert_dir}/key.pem"))
  def hex(s) = s.unpack1("H*")

  # An SSLServer on a loopback port; each accepted socket goes to handler in a thread of its own
  def with_server(handler = method(:echo))
    ctx = OpenSSL::SSL::SSLContext.new
    ctx.cert = cert
    ctx.key = key
    tcp = TCPServer.new("127.0.0.1", 0)
    server = OpenSSL::SSL::SSLServer.new(tcp, ctx)
    acceptor = Thread.new do
      loop do
        s = begin
          server.accept
        rescue OpenSSL::SSL::SSLError, SystemCallError, EOFError
          next                                            # a client that refused our certificate
        rescue IOError
          break
        end
        Thread.new(s) do |sock|
          handler.call(sock)
        rescue StandardError
          nil
        ensure
          sock.close
        end
      end
    end
    yield tcp.addr[1]
  ensure
    tcp&.close
    acceptor&.kill&.join
  end

  def client(port, ctx = OpenSSL::SSL::SSLContext.new, hostname = "localhost")
    s = OpenSSL::SSL::SSLSocket.new(TCPSocket.new("127.0.0.1", port), ctx)
    s.hostname = hostname
    s.sync_close = true
    s
  end

  def test_digests_of_abc
    assert_equal "900150983cd24fb0d6963f7d28e17f72", OpenSSL::Digest::MD5.hexdigest("abc")
    assert_equal "a9993e364706816aba3e25717850c26c9cd0d89d", OpenSSL::Digest::SHA1.hexdigest("abc")
    assert_equal "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", OpenSSL::Digest::SHA256.hexdigest("abc")
    assert_equal "cb00753f45a35e8b", OpenSSL::Digest::SHA384.hexdigest("abc")[0, 16]
    assert_equal "3a81oZNherrMQXNJriBB", OpenSSL::Digest::SHA512.base64digest("abc")[0, 20]
    assert_equal OpenSSL::Digest::SHA256.digest("abc"), OpenSSL::Digest.digest("SHA256", "abc")
    assert_equal OpenSSL::Digest::SHA1.hexdigest("abc"), OpenSSL::Digest.hexdigest("sha1", "abc")
    assert_equal 32, OpenSSL::Digest::SHA256.digest("abc").bytesize
    assert_equal Encoding::BINARY, OpenSSL::Digest::SHA256.digest("abc").encoding
    assert_equal Encoding::US_ASCII, OpenSSL::Digest::SHA256.hexdigest("abc").encoding
  end

  def test_digest_streaming
    d = OpenSSL::Digest.new("sha256")
    d << "a"
    d.update("bc")
    assert_equal "ba7816bf", d.hexdigest[0, 8]
    assert_equal "ba7816bf", d.hexdigest[0, 8]         # digest does not end the stream
    copy = d.dup
    d << "more"
    assert_equal "ba7816bf", copy.hexdigest[0, 8]
    assert_equal "2d711642", hex(d.digest("x"))[0, 8]   # the digest of "x" alone, then reset
    assert_equal "e3b0c442", d.hexdigest[0, 8]
    assert_equal ["SHA256", "SHA512", "MD5"], [d.name, OpenSSL::Digest.new("SHA512").name, OpenSSL::Digest::MD5.new.name]
    assert_equal [64, 48, 32], [OpenSSL::Digest.new("SHA1").block_length, OpenSSL::Digest::SHA384.new.digest_length, d.size]
    assert_equal true, OpenSSL::Digest::SHA256.new == OpenSSL::Digest::SHA256.new.hexdigest
    assert_equal "#<OpenSSL::Digest::SHA256: e3b", OpenSSL::Digest::SHA256.new.inspect[0, 30]
    assert_equal "ba7816bf", OpenSSL::Digest::SHA256.new("abc").to_s[0, 8]
    e = assert_raise(RuntimeError) { OpenSSL::Digest.new("FOO") }
    assert_equal "Unsupported digest algorithm (FOO).: unknown object name", e.message
  end

  def test_hmac
    assert_equal "e7ea21c3bcb63a4da3ad78503168d36bdca0be622382ea60a108fad4e4966679", OpenSSL::HMAC.hexdigest("SHA256", "k", "d")
    assert_equal "36f44b125a8a90639dc46733039571792e081e0fd8685ff746784b02ed14aa35629d562c7117cde4a701570551faa5a5e1b7ef1eb5c3bcd4cc1fdb8923fcf14e",
                 OpenSSL::HMAC.hexdigest("SHA512", "key", "The quick brown fox")
    assert_equal "74e6f7298a9c2d168935f58c001bad88", OpenSSL::HMAC.hexdigest(OpenSSL::Digest.new("MD5"), "", "")
    assert_equal "K5DkHnwMyOL3XAKRDDiZzEaLoxY=", OpenSSL::HMAC.base64digest("SHA1", "k", "d")
    h = OpenSSL::HMAC.new("k", "SHA256")
    h << "d"
    assert_equal "e7ea21c3bcb63a4da3ad78503168d36bdca0be622382ea60a108fad4e4966679", h.hexdigest
    assert_equal OpenSSL::HMAC.digest("SHA256", "k", "d"), h.digest
    h.reset
    assert_equal "8bb990c40a7d61cb97597a942125025be50ac8beb74436e3735b98893a7f6620", h.hexdigest
    assert_equal "8bb990c40a7d61cb97597a942125025be50ac8beb74436e3735b98893a7f6620", h.inspect
    assert_equal true, OpenSSL::HMAC.new("k", "SHA256") == h
  end

  def test_random_and_kdf
    assert_equal [5, 0], [OpenSSL::Random.random_bytes(5).bytesize, OpenSSL::Random.random_bytes(0).bytesize]
    assert_equal Encoding::BINARY, OpenSSL::Random.random_bytes(4).encoding
    assert_equal false, OpenSSL::Random.random_bytes(16) == OpenSSL::Random.random_bytes(16)
    e = assert_raise(ArgumentError) { OpenSSL::Random.random_bytes(-1) }
    assert_equal "negative string size (or size too big)", e.message
    assert_equal "ce7834ce3ad3ce55207a94de959d37af",
                 hex(OpenSSL::KDF.pbkdf2_hmac("pass", salt: "salt", iterations: 1000, length: 16, hash: "sha256"))
    assert_equal "ce7834ce3ad3ce55207a94de959d37af", hex(OpenSSL::PKCS5.pbkdf2_hmac("pass", "salt", 1000, 16, OpenSSL::Digest.new("SHA256")))
    assert_equal "3bcf2cb1b21e0e2030d10d24982a0aaf", hex(OpenSSL::PKCS5.pbkdf2_hmac_sha1("pass", "salt", 1000, 16))
    assert_equal [true, false], [OpenSSL.secure_compare("abc", "abc"), OpenSSL.secure_compare("abc", "abd")]
  end

  def crypt(name, key, iv, data, enc: true, aad: nil)
    c = OpenSSL::Cipher.new(name)
    enc ? c.encrypt : c.decrypt
    c.key = key
    c.iv = iv
    c.auth_data = aad if aad
    out = c.update(data) + c.final
    [out, c]
  end

  def test_cipher_ciphertexts_match_cruby
    ct, = crypt("aes-128-cbc", KEY, IV, "hello world, this is mnrb")
    assert_equal "48a64c77eda317c2ece0b3eb1013593a3c1fc8784674ff2ed98152e2f4a5eba6", hex(ct)
    assert_equal "hello world, this is mnrb", crypt("aes-128-cbc", KEY, IV, ct, enc: false)[0]
    assert_equal "2297c64fd47cb86f8788d0a3505cd679e6cc4ab5869b0c11921cab334653ebae", hex(crypt("aes-256-cbc", "k" * 32, IV, "x" * 16)[0])
    ct, = crypt("aes-128-ctr", KEY, IV, "counter mode")
    assert_equal "6824a31f82150d29d557a7b3", hex(ct)
    assert_equal "counter mode", crypt("AES-128-CTR", KEY, IV, ct, enc: false)[0]
    ct, c = crypt("aes-256-gcm", "k" * 32, "123456789012", "secret", aad: "hdr")
    assert_equal ["0183a6555c1a", "692951113beff26710b907f715c331b9", "692951113beff26710b907f7"],
                 [hex(ct), hex(c.auth_tag), hex(c.auth_tag(12))]
    d = OpenSSL::Cipher.new("aes-256-gcm").decrypt
    d.key = "k" * 32
    d.iv = "123456789012"
    d.auth_tag = c.auth_tag
    d.auth_data = "hdr"
    assert_equal "secret", d.update(ct) + d.final
    assert_equal Encoding::BINARY, ct.encoding
  end

  def test_cipher_errors
    c = OpenSSL::Cipher.new("aes-128-cbc")
    c.key = KEY
    c.encrypt                                   # the direction after the key: CRuby forgets the key
    assert_equal "key not set", assert_raise(OpenSSL::Cipher::CipherError) { c.update("x") }.message
    assert_equal "key must be 16 bytes", assert_raise(ArgumentError) { c.key = "x" }.message
    assert_equal "iv must be 16 bytes", assert_raise(ArgumentError) { c.iv = "x" }.message
    assert_equal "unsupported cipher algorithm (foo)", assert_raise(RuntimeError) { OpenSSL::Cipher.new("foo") }.message
    d = OpenSSL::Cipher.new("aes-128-cbc").decrypt
    d.key = KEY
    d.iv = IV
    d.update("a" * 16)
    assert_equal "bad decrypt", assert_raise(OpenSSL::Cipher::CipherError) { d.final }.message
    e = OpenSSL::Cipher.new("aes-128-cbc").encrypt
    e.key = KEY
    e.iv = IV
    e.padding = 0
    e.update("short")
    assert_equal "wrong final block length", assert_raise(OpenSSL::Cipher::CipherError) { e.final }.message
    g = OpenSSL::Cipher.new("aes-128-gcm").decrypt
    g.key = KEY
    g.iv = "123456789012"
    g.auth_tag = "t" * 16
    g.update("abc")
    assert_equal "", assert_raise(OpenSSL::Cipher::CipherError) { g.final }.message
    assert_equal "authentication tag not supported by this cipher",
                 assert_raise(OpenSSL::Cipher::CipherError) { OpenSSL::Cipher.new("aes-128-cbc").auth_tag }.message
    assert_equal OpenSSL::OpenSSLError, OpenSSL::Cipher::CipherError.superclass
    assert_equal StandardError, OpenSSL::OpenSSLError.superclass
  end

  def test_cipher_parameters_and_random_key
    g = OpenSSL::Cipher.new("aes-128-gcm").encrypt
    assert_equal [12, 16, 1, true], [g.iv_len, g.key_len, g.block_size, g.authenticated?]
    assert_equal [16, false], [OpenSSL::Cipher.new("aes-256-cbc").block_size, OpenSSL::Cipher.new("aes-256-cbc").authenticated?]
    assert_equal ["AES-128-CBC", "AES-256-GCM", "AES-256-CTR", "AES-128-GCM"],
                 [OpenSSL::Cipher::AES.new(128, :CBC).name, OpenSSL::Cipher::AES256.new(:GCM).name,
                  OpenSSL::Cipher::AES.new("256-CTR").name, OpenSSL::Cipher.new("aes-128-gcm").name]
    c = OpenSSL::Cipher.new("aes-256-cbc").encrypt
    k = c.random_key
    iv = c.random_iv
    assert_equal [32, 16], [k.bytesize, iv.bytesize]
    ct = c.update("x" * 100) + c.final
    assert_equal "x" * 100, crypt("aes-256-cbc", k, iv, ct, enc: false)[0]
  end

  def test_bn
    b = OpenSSL::BN.new("255")
    assert_equal ["FF", "0F", "\xFF".b, 255], [b.to_s(16), OpenSSL::BN.new(15).to_s(16), b.to_s(2), OpenSSL::BN.new("ff", 16).to_i]
    assert_equal [36, 3], (b / 7).map(&:to_i)
    assert_equal [3, 256, 258, true, 8], [(b % 7).to_i, (b + 1).to_i, 3 + b, b == 255, b.num_bits]
    assert_equal [true, false], [OpenSSL::BN.new(97).prime?, OpenSSL::BN.new(91).prime?]
    assert_equal [[-3, -1], -1, OpenSSL::BN, 1], [(OpenSSL::BN.new(-10) / 3).map(&:to_i), (OpenSSL::BN.new(-10) % 3).to_i, 10.to_bn.class, OpenSSL::BN.new(10) <=> 5]
  end

  def test_pkey_rsa_and_ec
    k = OpenSSL::PKey::RSA.new(1024)
    assert_equal [OpenSSL::PKey::RSA, true, false, "rsaEncryption"], [k.class, k.private?, k.public_key.private?, k.oid]
    assert_equal "-----BEGIN RSA PRIVATE KEY-----", k.to_pem[0, 31]
    assert_equal "-----BEGIN PUBLIC KEY-----", k.public_key.to_pem[0, 26]
    assert_equal 65537, k.e.to_i
    sig = k.sign("SHA256", "data")
    assert_equal [true, false], [k.verify("SHA256", sig, "data"), k.public_key.verify("SHA256", sig, "datx")]
    assert_equal OpenSSL::PKey::RSA, OpenSSL::PKey.read(k.to_pem).class
    ec = OpenSSL::PKey::EC.generate("prime256v1")
    assert_equal ["-----BEGIN EC PRIVATE KEY-----", "prime256v1"], [ec.to_pem[0, 30], ec.group.curve_name]
    sig = ec.sign(OpenSSL::Digest.new("SHA256"), "data")
    assert_equal [true, false], [ec.verify("SHA256", sig, "data"), ec.verify("SHA256", sig, "other")]
    assert_equal false, OpenSSL::PKey.read(ec.public_to_pem).private?
    assert_equal "invalid curve name", assert_raise(OpenSSL::PKey::ECError) { OpenSSL::PKey::EC.generate("nope") }.message
    assert_equal "Could not parse PKey", assert_raise(OpenSSL::PKey::PKeyError) { OpenSSL::PKey.read("junk") }.message
    assert_equal "Neither PUB key nor PRIV key", assert_raise(OpenSSL::PKey::RSAError) { OpenSSL::PKey::RSA.new("junk") }.message
  end

  def test_x509_certificate
    c = cert
    assert_equal ["/CN=localhost", "/CN=localhost", 2], [c.subject.to_s, c.issuer.to_s, c.version]
    assert_equal [true, true], [c.public_key.public_to_pem == key.public_to_pem, c.check_private_key(key)]
    assert_equal c.to_pem, OpenSSL::X509::Certificate.new(c.to_der).to_pem
    assert_equal "-----BEGIN CERTIFICATE-----\n", c.to_pem[0, 28]
    assert_equal [true, OpenSSL::BN], [c.not_after > c.not_before, c.serial.class]
    assert_equal true, c.verify(c.public_key)
    store = OpenSSL::X509::Store.new
    assert_equal false, store.verify(c)
    store.add_cert(c)
    assert_equal true, store.verify(c)
    assert_raise(OpenSSL::X509::CertificateError) { OpenSSL::X509::Certificate.new("junk") }
  end

  def echo(sock)
    while (line = sock.gets)
      sock.write line
      break if line == "bye\n"
    end
  end

  def test_x509_build_certificate
    key = OpenSSL::PKey::EC.generate("prime256v1")
    name = OpenSSL::X509::Name.parse("/CN=example.test/O=mnrb")
    assert_equal ["/CN=example.test/O=mnrb", "/CN=a/O=b", "/CN=x/O=y"],
                 [name.to_s, OpenSSL::X509::Name.new([["CN", "a"], ["O", "b"]]).to_s, OpenSSL::X509::Name.parse("CN=x, O=y").to_s]
    cert = OpenSSL::X509::Certificate.new
    cert.version = 2
    cert.serial = 4242
    cert.subject = name
    cert.issuer = name
    cert.public_key = key
    cert.not_before = Time.at(1_700_000_000)
    cert.not_after = Time.at(1_700_086_400)
    ef = OpenSSL::X509::ExtensionFactory.new
    ef.subject_certificate = cert
    ef.issuer_certificate = cert
    cert.add_extension(ef.create_extension("subjectAltName", "DNS:example.test,IP:127.0.0.1", false))
    cert.add_extension(ef.create_extension("basicConstraints", "CA:TRUE", true))
    cert.sign(key, OpenSSL::Digest.new("SHA256"))
    assert_equal [4242, Time.at(1_700_000_000), Time.at(1_700_086_400), true], [cert.serial.to_i, cert.not_before, cert.not_after, cert.verify(key)]
    assert_equal ["subjectAltName = DNS:example.test, IP Address:127.0.0.1", "basicConstraints = critical, CA:TRUE"], cert.extensions.map(&:to_s)
    copy = OpenSSL::X509::Certificate.new(cert.to_pem)
    assert_equal [true, [["CN", "example.test"], ["O", "mnrb"]]], [copy == cert, copy.subject.to_a.map { |a| a[0, 2] }]
    assert_equal [true, true, false], %w(example.test 127.0.0.1 other.test).map { |h| OpenSSL::SSL.verify_certificate_identity(cert, h) }
    assert_raise(OpenSSL::X509::ExtensionError) { ef.create_extension("nonsenseExt", "x") }
  end

  # each ractor has its own OpenSSL objects; CRuby 3.3 refuses these calls outside the main ractor
  # (its digest classes are made with procs a ractor cannot call)
  def test_in_ractors
    skip "CRuby 3.3's OpenSSL::Digest::SHA256 is not callable from a non-main Ractor" unless Object.const_defined?(:MNRB)
    rs = 2.times.map do
      Ractor.new do
        c = OpenSSL::Cipher.new("aes-128-gcm").encrypt
        c.random_key
        c.random_iv
        [OpenSSL::Digest::SHA256.hexdigest("abc")[0, 8], OpenSSL::HMAC.hexdigest("SHA256", "k", "d")[0, 8], (c.update("x") + c.final).bytesize]
      end
    end
    assert_equal [["ba7816bf", "e7ea21c3", 1]] * 2, rs.map(&:take)
  end

  def test_ssl_echo
    with_server do |port|
      ctx = OpenSSL::SSL::SSLContext.new
      ctx.set_params(ca_file: cert_path)
      assert_equal [OpenSSL::SSL::VERIFY_PEER, true], [ctx.verify_mode, ctx.verify_hostname]
      c = client(port, ctx)
      c.connect
      assert_equal ["TLSv1.3", "/CN=localhost"], [c.ssl_version, c.peer_cert.subject.to_s]
      c.puts "hello"
      c.print "a", "b\n"
      assert_equal "hello\n", c.gets
      assert_equal "ab\n", c.readpartial(100)
      c.write "x" * 100_000, "\n"
      assert_equal 100_001, c.gets.bytesize
      c.puts "bye"
      assert_equal "bye\n", c.gets
      assert_equal nil, c.read(1)                  # the server closed after "bye"
      assert_equal "", c.read
      c.close
      assert_equal true, c.closed?
    end
  end

  # the server drops the TCP connection without TLS's close_notify: CRuby's error, not an EOF
  def test_ssl_unexpected_eof
    handler = proc do |sock|
      sock.write "partial"
      sock.io.close
    end
    with_server(handler) do |port|
      c = client(port)
      c.connect
      assert_equal "partial", c.readpartial(100)
      e = assert_raise(OpenSSL::SSL::SSLError) { c.read }
      assert_equal "SSL_read: unexpected eof while reading", e.message
      c.close
      assert_raise(IOError) { c.sysread(1) }       # CRuby: EOFError, mnrb: IOError "closed stream"
    end
  end

  def test_ssl_verify_errors
    with_server do |port|
      ctx = OpenSSL::SSL::SSLContext.new
      ctx.set_params                              # the system's CAs: ours is not among them
      e = assert_raise(OpenSSL::SSL::SSLError) { client(port, ctx).connect }
      assert_equal "SSL_connect returned=1 errno=0 peeraddr=127.0.0.1:#{port} state=error: certificate verify failed (self-signed certificate)", e.message
      ctx = OpenSSL::SSL::SSLContext.new
      ctx.set_params(ca_file: cert_path)
      e = assert_raise(OpenSSL::SSL::SSLError) { client(port, ctx, "example.com").connect }
      assert_include e.message, "certificate verify failed (hostname mismatch)"
      c = client(port)                            # VERIFY_NONE: connects, the result says why
      c.connect
      assert_equal 18, c.verify_result
      assert_equal true, c.post_connection_check("127.0.0.1")
      e = assert_raise(OpenSSL::SSL::SSLError) { c.post_connection_check("example.com") }
      assert_equal "hostname \"example.com\" does not match the server certificate", e.message
      c.close
    end
  end

  # a thread waiting in an SSL read lets the others run (no GVL held while blocked) and is
  # stopped by Thread#kill; the reply it waits for is sent only after the main thread has run
  def test_ssl_blocked_read_frees_the_gvl
    go = Queue.new
    handler = proc do |sock|
      if sock.gets == "reader\n"
        sock.write go.pop
      else
        sock.gets                                 # until the client closes
      end
    end
    with_server(handler) do |port|
      c = client(port)
      c.connect
      c.puts "reader"
      s = client(port)
      s.connect
      s.puts "stuck"
      reader = Thread.new { c.gets }
      stuck = Thread.new { s.gets }
      n = 0
      200_000.times { n += 1 }                    # runs while both readers wait
      go << "late\n"
      assert_equal "late\n", reader.value
      assert_equal 200_000, n
      stuck.kill
      assert_equal false, stuck.join.status
      s.close
      c.close
    end
  end

  def test_net_http_https_against_s_server
    cmd = ["openssl", "s_server", "-accept", "0", "-cert", cert_path, "-key", "#{OpenSSLTest.cert_dir}/key.pem", "-www"]
    IO.popen(cmd, "r", err: [:child, :out]) do |io|
      port = nil
      while (line = io.gets)
        break if (port = line[/\AACCEPT .*:(\d+)$/, 1])
      end
      begin
        http = Net::HTTP.new("localhost", port.to_i)
        http.use_ssl = true
        http.ca_file = cert_path
        res = http.start { |h| h.get("/") }
        assert_equal ["200", true], [res.code, res.body.include?("s_server")]
        res = Net::HTTP.start("127.0.0.1", port.to_i, use_ssl: true, verify_mode: OpenSSL::SSL::VERIFY_NONE) { |h| h.get("/") }
        assert_equal "200", res.code
        e = assert_raise(OpenSSL::SSL::SSLError) { Net::HTTP.get(URI("https://localhost:#{port}/")) }
        assert_include e.message, "certificate verify failed (self-signed certificate)"
      ensure
        Process.kill(:TERM, io.pid)
      end
    end
  end

  # A wrong argument's TypeError names its class, as CRuby's ("wrong argument type Integer
  # (expected OpenSSL/X509)"; checked on CRuby 3.3.8). Store#verify takes the store and the
  # certificate before it makes its context, which a TypeError would otherwise leak.
  def test_wrong_argument_types_name_the_class
    [[-> { OpenSSL::X509::Store.new.verify(3) }, "Integer", "OpenSSL/X509"],
     [-> { OpenSSL::HMAC.digest(Object.new, "k", "d") }, "Object", "OpenSSL/Digest"],
     [-> { OpenSSL::X509::Certificate.new.public_key = 5 }, "Integer", "OpenSSL/EVP_PKEY"],
     [-> { OpenSSL::X509::Certificate.new.add_extension(:x) }, "Symbol", "OpenSSL/X509/EXTENSION"]].each do |call, got, expected|
      e = assert_raise(TypeError) { call.call }
      assert_equal "wrong argument type #{got} (expected #{expected})", e.message
    end
  end

  # Store#verify(nil) is OpenSSL's to refuse: X509_verify_cert fails, a CertificateError (CRuby 3.1
  # and 3.3.8: "X509_verify_cert: no cert set for us to verify"), not a TypeError; the store still verifies.
  def test_store_verify_without_a_certificate
    store = OpenSSL::X509::Store.new
    e = assert_raise(OpenSSL::X509::CertificateError) { store.verify(nil) }
    assert_equal "X509_verify_cert: no cert set for us to verify", e.message
    assert_equal false, store.verify(cert)
  end
end
