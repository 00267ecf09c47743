# Sockets on the event loop (CRuby 3.1 semantics): accept, connect, reads and writes park the
# thread; errors are CRuby's Errno classes. Loopback only.
require 'socket' unless Object.const_defined?(:TCPServer)

class SocketTest < MnTest::Case
  def setup
    @server = TCPServer.new("127.0.0.1", 0)
    @port = @server.addr[1]
  end

  def teardown
    @server.close unless @server.closed?
  end

  def test_accept_parks_while_the_client_connects_from_another_thread
    acceptor = Thread.new { c = @server.accept; line = c.gets; c.write "echo #{line}"; c.close; :served }
    wait_until("accept to block") { acceptor.status == "sleep" }
    client = TCPSocket.new("127.0.0.1", @port)
    client.write "hello\n"
    assert_equal "echo hello\n", client.read
    client.close
    assert_equal :served, acceptor.value
  end

  # A numeric address needs no resolver, so no blocking call (the native thread would leave the pool
  # and another take the ractor over); CRuby, too, resolves one with the GVL held. A name still goes
  # to getaddrinfo without the GVL, on a resolver thread (io_socket_blocking_test.rb).
  def test_a_numeric_address_is_resolved_without_a_blocking_call
    mnrb_only
    calls = -> { GVLTools::Stats.runtime[:blocking_calls] }
    before = calls.call
    TCPSocket.new("127.0.0.1", @port).close
    assert_equal ["::1"], Addrinfo.getaddrinfo("::1", @port.to_s, nil, Socket::SOCK_STREAM).map(&:ip_address)
    assert_equal before, calls.call
    TCPSocket.new("localhost", @port).close
  end

  def test_getaddrinfo_takes_family_and_type_by_name
    [[:INET, :STREAM], ["INET", "SOCK_STREAM"], [:AF_INET, :SOCK_STREAM], [:PF_INET, "STREAM"]].each do |fam, type|
      ai = Addrinfo.getaddrinfo("127.0.0.1", @port, fam, type)
      assert_equal [[Socket::AF_INET, Socket::SOCK_STREAM]], ai.map { |a| [a.afamily, a.socktype] }, [fam, type].inspect
    end
    e = assert_raise(SocketError) { Addrinfo.getaddrinfo("127.0.0.1", @port, :FOO) }
    assert_equal "unknown socket domain: FOO", e.message
    e = assert_raise(SocketError) { Addrinfo.getaddrinfo("127.0.0.1", @port, nil, :BAR) }
    assert_equal "unknown socket type: BAR", e.message
  end

  def test_thread_per_connection_echo_with_200_clients
    n = 200
    server = Thread.new do
      n.times.map do
        c = @server.accept
        Thread.new(c) { |s| while (l = s.gets); s.write l; end; s.close }
      end.each(&:join)
    end
    clients = n.times.map do |i|
      Thread.new do
        s = TCPSocket.new("127.0.0.1", @port)
        3.times { |k| s.write "#{i}-#{k}\n" }
        got = 3.times.map { s.gets }
        s.close
        got
      end
    end
    clients.each_with_index { |t, i| assert_equal 3.times.map { |k| "#{i}-#{k}\n" }, t.value }
    server.join
  end

  def test_connecting_to_a_closed_port_raises_econnrefused
    port = @port
    @server.close
    e = assert_raise(Errno::ECONNREFUSED) { TCPSocket.new("127.0.0.1", port) }
    assert_kind_of SystemCallError, e
  end

  def test_a_peer_reset_raises_econnreset
    acceptor = Thread.new do
      c = @server.accept
      c.write "ready"
      c.read(2)      # the client's "go": it is connected and reading
      c.setsockopt(Socket::SOL_SOCKET, Socket::SO_LINGER, [1, 0].pack("ii"))
      c.close        # linger 0: the close sends RST
    end
    client = TCPSocket.new("127.0.0.1", @port)
    assert_equal "ready", client.read(5)
    client.write "go"
    acceptor.join
    assert_raise(Errno::ECONNRESET) { client.read(1) }
    client.close
  end

  def test_recv_and_send
    acceptor = Thread.new { c = @server.accept; d = c.recv(5); c.send(d.upcase, 0); c.close }
    client = TCPSocket.new("127.0.0.1", @port)
    client.send("hello", 0)
    assert_equal "HELLO", client.recv(5)
    acceptor.join
    client.close
  end

  def test_eof_from_a_closed_peer
    acceptor = Thread.new { c = @server.accept; c.write "bye"; c.close }
    client = TCPSocket.new("127.0.0.1", @port)
    assert_equal "bye", client.read
    assert_nil client.gets
    acceptor.join
    client.close
  end

  def test_select_on_a_socket
    acceptor = Thread.new { c = @server.accept; sleep 0.01; c.write "x"; c }
    client = TCPSocket.new("127.0.0.1", @port)
    assert_equal [[client], [], []], IO.select([client], nil, nil, 5)
    acceptor.value.close
    client.close
  end

  def test_getaddrinfo_of_a_bad_host_raises_socket_error
    assert_raise(SocketError) { Addrinfo.getaddrinfo("no-such-host.invalid", 80) }
  end

  def test_getaddrinfo_of_localhost_runs_beside_other_threads
    ai = Addrinfo.getaddrinfo("localhost", 80, nil, Socket::SOCK_STREAM)
    assert ai.size >= 1
    assert ai.all? { |a| a.ip_port == 80 }
  end
end

class UNIXSocketTest < MnTest::Case
  def test_unix_server_and_client_echo
    path = "/tmp/mnrb-test-#{Process.pid}-#{rand(1_000_000)}.sock"
    server = UNIXServer.new(path)
    t = Thread.new { c = server.accept; c.write c.gets.upcase; c.close }
    client = UNIXSocket.new(path)
    client.write "unix\n"
    assert_equal "UNIX\n", client.read
    t.join
    client.close
    server.close
    File.unlink(path)
  end
end

class UDPSocketTest < MnTest::Case
  def test_udp_send_and_recvfrom_between_threads
    a = UDPSocket.new
    a.bind("127.0.0.1", 0)
    b = UDPSocket.new
    b.bind("127.0.0.1", 0)
    t = Thread.new { a.recvfrom(100) }
    wait_until("recvfrom to block") { t.status == "sleep" }
    b.send("ping", 0, "127.0.0.1", a.addr[1])
    msg, from = t.value
    assert_equal "ping", msg
    assert_equal "AF_INET", from[0]
    assert_equal b.addr[1], from[1]
    assert_equal "127.0.0.1", from[3]
    a.close
    b.close
  end
end

class ConnectTimeoutTest < MnTest::Case
  # CRuby 3.0+: TCPSocket.new(..., connect_timeout:) raises Errno::ETIMEDOUT. A listener with a full
  # backlog drops further SYNs (Linux), so a connect to it does not finish.
  def test_connect_timeout_raises_etimedout
    server = Socket.new(Socket::AF_INET, Socket::SOCK_STREAM, 0)
    server.bind(Socket.sockaddr_in(0, "127.0.0.1"))
    server.listen(0)
    port = Addrinfo.new(server.getsockname).ip_port
    fillers = []
    e = nil
    20.times do
      begin
        fillers << TCPSocket.new("127.0.0.1", port, connect_timeout: 0.05)
      rescue Errno::ETIMEDOUT => err
        e = err
        break
      end
    end
    assert_kind_of Errno::ETIMEDOUT, e
    fillers.each(&:close)
    server.close
  end
end
