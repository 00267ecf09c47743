# CRuby's special global variables and a few IO defaults real programs rely on: the aliases ($> is
# $stdout, $-d is $DEBUG, $-v and $-w are $VERBOSE, $-0 is $/, $-F is $;, $-I is $:), their values
# at start-up, $* as ARGV, ObjectSpace.each_object without a block, File.mkfifo, and sockets and
# IO.popen being sync. Expected values are CRuby 3.1's (this file passes there too).
require "socket"
require "tmpdir"

class SpecialGlobalsTest < MnTest::Case
  def test_dollar_greater_is_stdout_for_reading_and_writing
    assert_same $stdout, $>
    out = capture_stdout do
      $> << "via $>\n"
      saved = $>
      r, w = IO.pipe
      $> = w
      puts "to the pipe"
      assert_same w, $stdout
      $> = saved
      w.close
      assert_equal "to the pipe\n", r.read
      r.close
    end
    assert_equal "via $>\n", out
  end

  def test_dash_globals_lex_as_one_variable
    assert_equal [false, false, false], [$-d, $-v, $-w].map { |v| v == true }
    assert_equal 2, [$-d, $-v].size               # a syntax error before
    assert_equal "\n", $-0
    assert_nil $-F
    assert_nil $-i
    assert_equal [false, false, false], [$-l, $-p, $-a]
    assert_same $:, $-I
  end

  def test_aliases_write_the_variable_they_alias
    saved = $VERBOSE
    begin
      $-v = true
      assert_equal true, $VERBOSE
      $-w = nil
      assert_nil $VERBOSE
    ensure
      $VERBOSE = saved
    end
    saved_debug = $DEBUG
    begin
      $-d = true
      assert_equal true, $DEBUG
    ensure
      $DEBUG = saved_debug
    end
    assert_equal false, $DEBUG
  end

  def test_start_up_values
    assert_equal false, $DEBUG
    assert_equal "\n", $/
    assert $/.frozen?
    assert_same ARGV, $*
    assert_equal "-", $FILENAME
  end

  def test_each_object_without_a_block_is_an_enumerator
    e = ObjectSpace.each_object(Class)
    assert_kind_of Enumerator, e
    assert e.include?(String)
    assert_equal ObjectSpace.each_object(Class) { }, e.count
  end

  def test_file_mkfifo
    Dir.mktmpdir do |dir|
      path = File.join(dir, "fifo")
      assert_equal 0, File.mkfifo(path)
      assert_equal "fifo", File.ftype(path)
      assert_equal 0, File.mkfifo(path + "2", 0o600)
      assert_equal 0o600 & ~File.umask, File.stat(path + "2").mode & 0o777
      e = assert_raise(Errno::EEXIST) { File.mkfifo(path) }
      assert_include e.message, path
      assert_raise(TypeError) { File.mkfifo(3) }
      assert_raise(Errno::ENOENT) { File.mkfifo(File.join(dir, "no", "such")) }
    end
  end

  def test_sockets_and_popen_are_sync
    a, b = UNIXSocket.pair
    assert_equal [true, true], [a.sync, b.sync]
    a.write "x"
    assert_equal "x", b.readpartial(1)
    [a, b].each(&:close)
    server = TCPServer.new("127.0.0.1", 0)
    client = TCPSocket.new("127.0.0.1", server.addr[1])
    peer = server.accept
    assert_equal [true, true, true], [server.sync, client.sync, peer.sync]
    [client, peer, server].each(&:close)
    IO.popen("cat", "r+") do |io|
      assert_equal true, io.sync
      io.write "echo\n"
      assert_equal "echo\n", io.gets
    end
    IO.popen("true") { |io| assert_equal true, io.sync }
  end
end
