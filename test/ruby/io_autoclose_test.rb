# IO#autoclose= and #autoclose?: an IO with autoclose false leaves its descriptor open when it is
# collected (true, the default, closes it), and when it is closed (CRuby 3.1 and 3.3). Expected values are CRuby
# 3.1's (this file passes there too).
class IOAutocloseTest < MnTest::Case
  def wrappers(fd, n, autoclose)
    n.times do
      io = IO.for_fd(fd)
      io.autoclose = autoclose
    end
    nil
  end

  def test_autoclose_false_keeps_the_descriptor_through_collection
    r, w = IO.pipe
    wrappers(r.fileno, 50, false)
    GC.start
    GC.start
    w.write("still open")
    w.close
    assert_equal "still open", r.read
    r.close
  end

  def test_flag
    r, w = IO.pipe
    assert_equal true, r.autoclose?
    assert_equal false, (r.autoclose = false)
    assert_equal false, r.autoclose?
    r.autoclose = true
    assert_equal true, r.autoclose?
    r.autoclose = nil
    assert_equal false, r.autoclose?
    r.close
    assert_raise(IOError) { r.autoclose? }
    assert_raise(IOError) { r.autoclose = true }
    w.autoclose = false
    w.close
    assert_raise(IOError) { w.write("x") }
  end

  # IO#close of an IO with autoclose false leaves the descriptor open too (CRuby 3.1 and 3.3;
  # WEBrick hands a listening Socket's descriptor to TCPServer.for_fd, then closes the Socket)
  def test_close_with_autoclose_false_keeps_the_descriptor
    r, w = IO.pipe
    w.autoclose = false
    fd = w.fileno
    assert_nil w.close
    assert w.closed?
    w2 = IO.for_fd(fd, "w")
    w2.write("x")
    w2.close
    assert_equal "x", r.read
    r.close
  end
end
