# Socket.tcp and Socket.unix as CRuby's: a connected socket, or with a block the block's value and the
# socket closed after it; a refused connection raises Errno::ECONNREFUSED (a SystemCallError, which
# scripts rescue: kostya/benchmarks' notify does).
require "socket"
require "tmpdir"

class SocketTcpTest < MnTest::Case
  def test_tcp_with_a_block_connects_yields_and_closes
    server = TCPServer.new("127.0.0.1", 0)
    port = server.addr[1]
    peer = Thread.new { c = server.accept; line = c.gets; c.close; line }
    kept = nil
    result = Socket.tcp("127.0.0.1", port) { |s| kept = s; s.puts "hello"; :done }
    assert_equal :done, result
    assert kept.closed?
    assert_equal "hello\n", peer.value
  ensure
    server&.close
  end

  def test_tcp_without_a_block_returns_the_socket
    server = TCPServer.new("127.0.0.1", 0)
    s = Socket.tcp("127.0.0.1", server.addr[1])
    assert_kind_of BasicSocket, s
    s.close
  ensure
    server&.close
  end

  def test_a_refused_connection_raises_econnrefused
    port = TCPServer.open("127.0.0.1", 0) { |srv| srv.addr[1] }   # closed again: nobody listens
    assert_raise(Errno::ECONNREFUSED) { Socket.tcp("127.0.0.1", port) { flunk "connected" } }
  end

  def test_unix_with_a_block
    Dir.mktmpdir("socktcp") do |dir|
      path = File.join(dir, "s")
      server = UNIXServer.new(path)
      peer = Thread.new { c = server.accept; line = c.gets; c.close; line }
      assert_equal 3, Socket.unix(path) { |s| s.write("hi\n"); 3 }
      assert_equal "hi\n", peer.value
      server.close
    end
  end
end
