# SSLContext::DEFAULT_CERT_STORE holds the system's CAs (set_default_paths: OpenSSL's default file
# and directory, which SSL_CERT_FILE and SSL_CERT_DIR override). mnrb loads them when the store is
# first verified against (Store#verify, or an SSLContext's setup), not at `require "openssl"`, nor
# at each Ractor.new after it (a new ractor replays the feature): what a verification sees is
# CRuby's. Each case runs in a child process whose SSL_CERT_FILE is a test CA made here by the
# `openssl` command and whose SSL_CERT_DIR is empty, so "the system's CAs" are that one CA.
# Checked on CRuby 3.3.8 and Debian's 3.1 (but the mnrb-only cases: CRuby 3.x refuses
# DEFAULT_CERT_STORE in a non-main ractor, and has no __default_paths_due?).
require "tmpdir"
require "fileutils"

class OpenSSLDefaultStoreTest < MnTest::Case
  # a CA, and a leaf for localhost it signed, made for each case (the harness runs the cases from
  # at_exit and ends with exit!: no at_exit of a case's would run)
  def setup
    @dir = Dir.mktmpdir("mnrb-ossl-store")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    q = { out: File::NULL, err: File::NULL }
    Dir.mkdir("#{@dir}/certs")
    File.write("#{@dir}/ext", "subjectAltName=DNS:localhost\n")
    ok = system("openssl", "req", "-x509", *ec, "-keyout", "#{@dir}/ca.key", "-out", "#{@dir}/ca.pem", "-days", "2",
                "-subj", "/CN=mnrb test CA", **q) &&
         system("openssl", "req", *ec, "-keyout", "#{@dir}/leaf.key", "-out", "#{@dir}/leaf.csr", "-subj", "/CN=localhost", **q) &&
         system("openssl", "x509", "-req", "-in", "#{@dir}/leaf.csr", "-CA", "#{@dir}/ca.pem", "-CAkey", "#{@dir}/ca.key",
                "-set_serial", "2", "-days", "2", "-extfile", "#{@dir}/ext", "-out", "#{@dir}/leaf.pem", **q)
    raise "openssl failed" unless ok
  end

  def teardown
    FileUtils.rm_rf(@dir) if @dir
  end

  def run_child(code)
    env = { "SSL_CERT_FILE" => "#{@dir}/ca.pem", "SSL_CERT_DIR" => "#{@dir}/certs", "DIR" => @dir }
    IO.popen([env, RbConfig.ruby, "-W:no-experimental", "-e", code], err: [:child, :out], &:read)
  end

  def mnrb? = Object.const_defined?(:MNRB)

  # the leaf verifies against the default store (its CA is "the system's"), not against an empty
  # store; a store the program gives the default paths verifies it too
  def test_default_store_verifies_a_chain_to_the_system_ca
    out = run_child(<<~'RUBY')
      require "openssl"
      leaf = OpenSSL::X509::Certificate.new(File.read("#{ENV["DIR"]}/leaf.pem"))
      s = OpenSSL::X509::Store.new
      own = OpenSSL::X509::Store.new
      own.set_default_paths
      p [OpenSSL::SSL::SSLContext::DEFAULT_CERT_STORE.verify(leaf), s.verify(leaf), s.error, own.verify(leaf),
         OpenSSL::X509::DEFAULT_CERT_FILE.class, OpenSSL::SSL::SSLContext::DEFAULT_PARAMS[:verify_mode]]
    RUBY
    assert_equal "[true, false, 20, true, String, 1]\n", out
  end

  # set_params gives an SSLContext the default store: a TLS connection to a server with the leaf
  # verifies (certificate and hostname) against the system CA
  def test_set_params_verifies_a_server_against_the_system_ca
    out = run_child(<<~'RUBY')
      require "openssl"
      require "socket"
      d = ENV["DIR"]
      sctx = OpenSSL::SSL::SSLContext.new
      sctx.cert = OpenSSL::X509::Certificate.new(File.read("#{d}/leaf.pem"))
      sctx.key = OpenSSL::PKey.read(File.read("#{d}/leaf.key"))
      tcp = TCPServer.new("127.0.0.1", 0)
      server = OpenSSL::SSL::SSLServer.new(tcp, sctx)
      t = Thread.new { s = server.accept; s.write(s.gets); s.close }
      ctx = OpenSSL::SSL::SSLContext.new
      ctx.set_params
      c = OpenSSL::SSL::SSLSocket.new(TCPSocket.new("127.0.0.1", tcp.addr[1]), ctx)
      c.hostname = "localhost"
      c.sync_close = true
      c.connect
      c.write("hi\n")
      p [c.gets, c.verify_result, ctx.cert_store.equal?(OpenSSL::SSL::SSLContext::DEFAULT_CERT_STORE)]
      c.close
      t.join
    RUBY
    assert_equal "[\"hi\\n\", 0, true]\n", out
  end

  # a ractor created after the require verifies against its default store as the main one does
  def test_a_ractor_after_the_require_verifies_against_the_default_store
    skip "CRuby 3.x: DEFAULT_CERT_STORE is not shareable (Ractor::IsolationError in a non-main ractor)" unless mnrb?
    out = run_child(<<~'RUBY')
      require "openssl"
      r = Ractor.new(ENV["DIR"]) do |d|
        leaf = OpenSSL::X509::Certificate.new(File.read("#{d}/leaf.pem"))
        ca = OpenSSL::X509::Certificate.new(File.read("#{d}/ca.pem"))
        s = OpenSSL::X509::Store.new
        s.add_cert(ca)
        [OpenSSL::SSL::SSLContext::DEFAULT_CERT_STORE.verify(leaf), OpenSSL::X509::Store.new.verify(leaf), s.verify(leaf)]
      end
      p r.take
    RUBY
    assert_equal "[true, false, true]\n", out
  end

  # the system CAs are read at the default store's first verification: not at the require, nor
  # in a ractor that never verifies (mnrb's own flag: CRuby has none)
  def test_the_system_cas_are_loaded_at_the_first_verification
    skip "mnrb's lazy default store (CRuby loads it at require)" unless mnrb?
    out = run_child(<<~'RUBY')
      require "openssl"
      st = OpenSSL::SSL::SSLContext::DEFAULT_CERT_STORE
      before = st.__default_paths_due?
      in_ractor = Ractor.new { OpenSSL::SSL::SSLContext::DEFAULT_CERT_STORE.__default_paths_due? }.take
      leaf = OpenSSL::X509::Certificate.new(File.read("#{ENV["DIR"]}/leaf.pem"))
      p [before, in_ractor, st.verify(leaf), st.__default_paths_due?, OpenSSL::X509::Store.new.__default_paths_due?]
    RUBY
    assert_equal "[true, true, true, false, false]\n", out
  end
end
