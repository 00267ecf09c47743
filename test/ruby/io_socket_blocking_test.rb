# Socket calls that can wait for the network run without the GVL (CRuby 3.1 semantics): a connect
# on a descriptor left blocking, and the last close of a socket with SO_LINGER and unsent data.
require "socket"
begin
  require "io/nonblock"
rescue LoadError
end

class IOSocketBlockingTest < MnTest::Case
  def wait_blocked(t)
    wait_until("the thread to block") { t.status == "sleep" || !t.alive? }
  end

  # A listener whose accept queue is full (backlog 0, one connection nobody accepts): the kernel
  # drops further handshakes, so a connect waits.
  def full_listener
    srv = Socket.new(Socket::AF_INET, Socket::SOCK_STREAM)
    srv.bind(Addrinfo.tcp("127.0.0.1", 0))
    srv.listen(0)
    first = Socket.new(Socket::AF_INET, Socket::SOCK_STREAM)
    first.connect(srv.local_address)
    [srv, first]
  end

  def test_thread_raise_interrupts_a_connect_on_a_blocking_socket
    srv, first = full_listener
    c = Socket.new(Socket::AF_INET, Socket::SOCK_STREAM)
    c.nonblock = false
    t = Thread.new { c.connect(srv.local_address); :connected }
    t.report_on_exception = false
    wait_blocked(t)
    assert_equal true, t.alive?                  # this thread runs meanwhile
    t.raise(RuntimeError, "give up connecting")
    e = assert_raise(RuntimeError) { t.join }
    assert_equal "give up connecting", e.message
  ensure
    [c, first, srv].each { |x| x&.close }
  end

  # A client whose unsent data cannot leave (the peer reads nothing), with a linger of 30 s.
  def lingering_pair
    srv = TCPServer.new("127.0.0.1", 0)
    c = TCPSocket.new("127.0.0.1", srv.addr[1])
    s = srv.accept
    c.setsockopt(Socket::SOL_SOCKET, Socket::SO_SNDBUF, 4096)
    sent = 0
    begin
      loop { sent += c.write_nonblock("x" * 65536) }
    rescue IO::WaitWritable
    end
    c.setsockopt(Socket::SOL_SOCKET, Socket::SO_LINGER, [1, 30].pack("ii"))
    [srv, c, s, sent]
  end

  def test_close_of_a_lingering_socket_lets_other_threads_run
    srv, c, s, sent = lingering_pair
    closer = Thread.new { c.close; :closed }
    wait_blocked(closer)
    assert_equal true, closer.alive?             # seen waiting inside close, while this thread ran
    assert_equal sent, s.read.size               # once the data is read, close returns
    assert_equal :closed, closer.value
    assert_equal true, c.closed?
  ensure
    [s, srv].each { |x| x&.close }
  end

  def test_thread_kill_interrupts_the_close_of_a_lingering_socket
    srv, c, s, = lingering_pair
    closer = Thread.new { c.close }
    wait_blocked(closer)
    closer.kill
    assert_same closer, closer.join(10)
    assert_equal true, c.closed?
  ensure
    [s, srv].each { |x| x&.close }
  end

  # Host names are looked up on a resolver thread of their own while the Ruby thread waits parked
  # (interruptible, as CRuby 3.3). Many threads at once each get their own answer.
  def test_concurrent_lookups_of_host_names
    threads = 8.times.map do
      Thread.new { 20.times.map { Addrinfo.getaddrinfo("localhost", 80, Socket::AF_INET, Socket::SOCK_STREAM).map(&:ip_address) } }
    end
    threads.each { |t| assert_equal [["127.0.0.1"]] * 20, t.value }
    e = assert_raise(SocketError) { Addrinfo.getaddrinfo("no-such-host.invalid", 80) }
    assert_include e.message, "getaddrinfo"
  end

  # A thread killed or raised into while it waits for a lookup leaves it to finish alone.
  def test_lookups_abandoned_by_killed_threads
    20.times do |i|
      t = Thread.new { loop { Addrinfo.getaddrinfo("localhost", 80) } }
      t.report_on_exception = false
      wait_blocked(t)
      i.even? ? t.kill : t.raise(RuntimeError, "stop")
      t.join rescue nil
      assert_equal false, t.alive?
    end
    assert_equal "127.0.0.1", Addrinfo.getaddrinfo("localhost", 80, Socket::AF_INET)[0].ip_address
  end

  def test_connect_nonblock_raises_wait_writable_while_the_handshake_waits
    srv, first = full_listener
    c = Socket.new(Socket::AF_INET, Socket::SOCK_STREAM)
    e = assert_raise(IO::EINPROGRESSWaitWritable) { c.connect_nonblock(srv.local_address) }
    assert_kind_of Errno::EINPROGRESS, e
    assert_kind_of IO::WaitWritable, e
    assert_equal true, c.nonblock?
  ensure
    [c, first, srv].each { |x| x&.close }
  end

  def test_connect_nonblock_then_wait_writable_connects
    srv = TCPServer.new("127.0.0.1", 0)
    addr = Addrinfo.tcp("127.0.0.1", srv.addr[1])
    c = Socket.new(Socket::AF_INET, Socket::SOCK_STREAM)
    r = c.connect_nonblock(addr, exception: false)
    if r == :wait_writable
      assert_same c, c.wait_writable(10)
      assert_equal 0, c.connect_nonblock(addr, exception: false)   # EISCONN: connected
      assert_raise(Errno::EISCONN) { c.connect_nonblock(addr) }
    else
      assert_equal 0, r
    end
    s = srv.accept
    c.write "hi"
    assert_equal "hi", s.readpartial(10)
  ensure
    [c, s, srv].each { |x| x&.close }
  end
end
