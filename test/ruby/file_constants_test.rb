# File::Constants (and IO::, which includes it) with Linux's open(2) values, as CRuby: programs pass
# raw integers, or the constants on to IO#fcntl and other syscall-level code. mruby-io numbered them
# its own way (File::APPEND 8, File::NONBLOCK 4). Checked on CRuby 3.3.8 and 3.1.
require "fcntl"

class FileConstantsTest < MnTest::Case
  def setup
    @dir = "/tmp/mnrb-file-constants-#{Process.pid}"
    Dir.mkdir(@dir) unless File.directory?(@dir)
    @path = File.join(@dir, "f")
  end

  def teardown
    File.unlink(@path) if File.exist?(@path)
    Dir.rmdir(@dir) if File.directory?(@dir)
  end

  def test_values_are_linux_open_flags
    assert_equal [0, 1, 2, 64, 128, 256, 512, 1024, 2048],
                 [File::RDONLY, File::WRONLY, File::RDWR, File::CREAT, File::EXCL, File::NOCTTY,
                  File::TRUNC, File::APPEND, File::NONBLOCK]
    assert_equal [1052672, 4096, 1052672, 131072, 262144, 16384, 4259840, 0, 0],
                 [File::SYNC, File::DSYNC, File::RSYNC, File::NOFOLLOW, File::NOATIME, File::DIRECT,
                  File::TMPFILE, File::BINARY, File::SHARE_DELETE]
  end

  def test_agree_with_fcntl
    assert_equal [Fcntl::O_APPEND, Fcntl::O_NONBLOCK, Fcntl::O_CREAT, Fcntl::O_EXCL, Fcntl::O_TRUNC],
                 [File::APPEND, File::NONBLOCK, File::CREAT, File::EXCL, File::TRUNC]
  end

  def test_io_includes_file_constants
    assert IO.include?(File::Constants)
    assert_equal 1024, IO::APPEND
    assert_equal 2048, File::Constants::NONBLOCK
  end

  def test_sysopen_with_constants
    fd = IO.sysopen(@path, File::WRONLY | File::CREAT | File::TRUNC, 0o600)
    io = IO.new(fd, "w")
    io.write("ab")
    io.close
    assert_equal "ab", File.read(@path)
    assert_equal 0o600, File.stat(@path).mode & 0o777
  end

  def test_sysopen_with_raw_linux_integers
    fd = IO.sysopen(@path, 1 | 64 | 512)                  # O_WRONLY|O_CREAT|O_TRUNC
    IO.new(fd, "w").tap { |io| io.write("x") }.close
    fd = IO.sysopen(@path, 1 | 1024)                       # O_WRONLY|O_APPEND
    IO.new(fd, "w").tap { |io| io.write("y") }.close
    assert_equal "xy", File.read(@path)
  end

  def test_open_with_append_flag_appends
    File.write(@path, "a")
    File.open(@path, File::WRONLY | File::APPEND) { |f| f.write("b") }
    File.open(@path, File::WRONLY | File::APPEND) { |f| f.write("c") }
    assert_equal "abc", File.read(@path)
  end

  def test_excl_refuses_an_existing_file
    File.write(@path, "")
    assert_raise(Errno::EEXIST) { File.open(@path, File::WRONLY | File::CREAT | File::EXCL) }
  end

  def test_trunc_empties
    File.write(@path, "hello")
    File.open(@path, File::WRONLY | File::TRUNC) { |f| f.write("x") }
    assert_equal "x", File.read(@path)
  end

  def test_flags_keyword_ors_into_the_mode
    File.write(@path, "1")
    File.open(@path, "w", flags: File::APPEND) { |f| f.write("2") }
    assert_equal "2", File.read(@path)
    File.open(@path, File::WRONLY, flags: File::APPEND) { |f| f.write("3") }
    assert_equal "23", File.read(@path)
  end

  def test_nonblock_flag_reaches_the_descriptor
    File.write(@path, "z")
    File.open(@path, File::RDONLY | File::NONBLOCK) do |f|
      assert_equal File::NONBLOCK, f.fcntl(Fcntl::F_GETFL) & File::NONBLOCK
      assert_equal "z", f.read
    end
    File.open(@path, File::RDONLY) do |f|
      assert_equal 0, f.fcntl(Fcntl::F_GETFL) & File::NONBLOCK
    end
  end

  def test_fcntl_setfl_with_file_constants
    r, w = IO.pipe
    fl = r.fcntl(Fcntl::F_GETFL)
    r.fcntl(Fcntl::F_SETFL, fl & ~File::NONBLOCK)
    assert_equal 0, r.fcntl(Fcntl::F_GETFL) & File::NONBLOCK
    r.fcntl(Fcntl::F_SETFL, fl | File::NONBLOCK)
    assert_equal File::NONBLOCK, r.fcntl(Fcntl::F_GETFL) & File::NONBLOCK
    assert_equal File::APPEND, w.tap { |x| x.fcntl(Fcntl::F_SETFL, x.fcntl(Fcntl::F_GETFL) | File::APPEND) }.fcntl(Fcntl::F_GETFL) & File::APPEND
  ensure
    r&.close
    w&.close
  end

  def test_getfl_of_an_append_file
    File.open(@path, "a") do |f|
      assert_equal File::APPEND, f.fcntl(Fcntl::F_GETFL) & File::APPEND
      assert_equal File::WRONLY, f.fcntl(Fcntl::F_GETFL) & Fcntl::O_ACCMODE
    end
  end
end
