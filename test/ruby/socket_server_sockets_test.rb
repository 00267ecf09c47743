# Socket.tcp_server_sockets(host = nil, port), as CRuby's: listening Sockets, one per address of
# host (IPv4's and IPv6's wildcards for nil), all on one port (port 0: the first one's free port);
# with a block, the block's value and the sockets closed after it. WEBrick builds its listeners on
# it: when Debian's ruby-webrick is installed (a pure-Ruby library), a WEBrick server serves a GET.
# Expected values: CRuby 3.1 and 3.3.8.
require "socket"

class SocketServerSocketsTest < MnTest::Case
  def test_listens_on_the_loopback_address
    socks = Socket.tcp_server_sockets("127.0.0.1", 0)
    assert_equal 1, socks.size
    s = socks[0]
    assert_kind_of Socket, s
    port = s.local_address.ip_port
    assert port > 0
    c = TCPSocket.new("127.0.0.1", port)
    conn, addr = s.accept
    assert_kind_of Addrinfo, addr
    c.write("hi")
    assert_equal "hi", conn.read(2)
    [c, conn, s].each(&:close)
  end

  def test_nil_host_gives_one_port_for_every_family
    socks = Socket.tcp_server_sockets(0)
    assert socks.size >= 1
    assert_equal 1, socks.map { |s| s.local_address.ip_port }.uniq.size
    socks.each(&:close)
  end

  def test_block_closes_the_sockets
    kept = nil
    v = Socket.tcp_server_sockets("127.0.0.1", 0) { |socks| kept = socks; :done }
    assert_equal :done, v
    assert kept.all?(&:closed?)
  end

  def test_a_port_in_use_raises
    Socket.tcp_server_sockets("127.0.0.1", 0) do |socks|
      port = socks[0].local_address.ip_port
      assert_raise(Errno::EADDRINUSE) { Socket.tcp_server_sockets("127.0.0.1", port) }
    end
  end

  WEBRICK = Dir.glob("/usr/share/rubygems-integration/all/gems/webrick-*/lib").max

  def test_webrick_serves_a_request
    return skip("Debian's ruby-webrick is not installed") unless WEBRICK
    $LOAD_PATH.unshift(WEBRICK)
    require "webrick"
    require "net/http"
    log = WEBrick::Log.new(File::NULL)
    server = WEBrick::HTTPServer.new(BindAddress: "127.0.0.1", Port: 0, Logger: log, AccessLog: [])
    server.mount_proc("/hello") { |req, res| res.body = "hello #{req.query["name"]}" }
    t = Thread.new { server.start }
    port = server.config[:Port]
    res = Net::HTTP.get_response(URI("http://127.0.0.1:#{port}/hello?name=mnrb"))
    assert_equal "200", res.code
    assert_equal "hello mnrb", res.body
  ensure
    server&.shutdown
    t&.join(10)
    $LOAD_PATH.delete(WEBRICK)
  end
end
