# Closing one direction (CRuby 3.1 semantics): sockets half-close with shutdown(2); a pipe's end
# that does not go that way raises IOError; IO.popen of a missing command raises Errno::ENOENT.
require "socket"

class IOCloseHalvesTest < MnTest::Case
  def test_tcp_socket_close_write_half_closes
    srv = TCPServer.new("127.0.0.1", 0)
    c = TCPSocket.new("127.0.0.1", srv.addr[1])
    s = srv.accept
    c.write "request"
    assert_nil c.close_write
    assert_equal "request", s.read          # the peer sees the end of the stream
    s.write "reply"
    s.close
    assert_equal "reply", c.read            # and this end still reads
    assert_equal false, c.closed?
    assert_raise(IOError) { c.write "more" }
  ensure
    [c, s, srv].each { |x| x&.close }
  end

  def test_unix_socket_close_write_and_close_read
    a, b = UNIXSocket.pair
    assert_nil a.close_write
    assert_equal "", b.read
    b.write "still open"
    assert_equal "still open", a.readpartial(100)
    assert_nil a.close_read                 # both directions gone: the socket closes
    assert_equal true, a.closed?
  ensure
    [a, b].each { |x| x&.close }
  end

  def test_close_write_on_a_pipes_read_end_raises_ioerror
    r, w = IO.pipe
    e = assert_raise(IOError) { r.close_write }
    assert_equal "closing non-duplex IO for writing", e.message
    e = assert_raise(IOError) { w.close_read }
    assert_equal "closing non-duplex IO for reading", e.message
    assert_equal [false, false], [r.closed?, w.closed?]
  ensure
    [r, w].each { |x| x&.close }
  end

  def test_close_read_on_a_read_end_and_close_write_on_a_write_end_close_it
    r, w = IO.pipe
    assert_nil r.close_read
    assert_equal true, r.closed?
    assert_nil w.close_write
    assert_equal true, w.closed?
    assert_nil r.close_read                 # closed already: nil
  end

  def test_popen_of_a_missing_command_raises_enoent
    ["/nonexistent/command", ["/nonexistent/command", "arg"], [["/nonexistent/command", "argv0"]]].each do |cmd|
      e = assert_raise(Errno::ENOENT) { IO.popen(cmd) }
      assert_include e.message, "No such file or directory"
      assert_include e.message, "/nonexistent/command"
    end
  end

  # The command must not hold a copy of the parent's end of the socket pair (CRuby's descriptors
  # are close-on-exec): if it did, cat would never see end-of-file and close would wait for ever.
  def test_popen_duplex_close_without_close_write_ends_the_command
    io = IO.popen(["cat"], "r+")
    io.write "line\n"
    assert_equal "line\n", io.gets
    io.close
    assert_equal true, $?.success?
  end

  def test_socketpair_ends_are_close_on_exec
    require "socket"
    a, b = UNIXSocket.pair
    out = IO.popen(["sh", "-c", "ls /proc/$$/fd"], &:read).split.map(&:to_i)
    assert_equal false, out.include?(a.fileno)
    assert_equal false, out.include?(b.fileno)
  ensure
    a&.close
    b&.close
  end
end
