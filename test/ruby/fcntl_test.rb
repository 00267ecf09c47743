# Fcntl (`require "fcntl"`) as CRuby's: the constants with Linux's values, used with IO#fcntl on
# a pipe (O_NONBLOCK set and cleared through F_GETFL/F_SETFL, FD_CLOEXEC through F_GETFD/F_SETFD)
# and with files' F_GETFL. Checked on CRuby 3.3.8 and 3.1.
require "fcntl"

class FcntlTest < MnTest::Case
  def test_constants
    assert_equal [0, 1, 2, 3, 4, 1], [Fcntl::F_DUPFD, Fcntl::F_GETFD, Fcntl::F_SETFD, Fcntl::F_GETFL, Fcntl::F_SETFL, Fcntl::FD_CLOEXEC]
    assert_equal [5, 6, 7, 0, 1, 2], [Fcntl::F_GETLK, Fcntl::F_SETLK, Fcntl::F_SETLKW, Fcntl::F_RDLCK, Fcntl::F_WRLCK, Fcntl::F_UNLCK]
    assert_equal [0, 1, 2, 3], [Fcntl::O_RDONLY, Fcntl::O_WRONLY, Fcntl::O_RDWR, Fcntl::O_ACCMODE]
    assert_equal [64, 128, 256, 512, 1024, 2048, 2048], [Fcntl::O_CREAT, Fcntl::O_EXCL, Fcntl::O_NOCTTY,
                                                         Fcntl::O_TRUNC, Fcntl::O_APPEND, Fcntl::O_NONBLOCK, Fcntl::O_NDELAY]
    assert_equal [1032, 1031], [Fcntl::F_GETPIPE_SZ, Fcntl::F_SETPIPE_SZ]
    assert_equal false, require("fcntl")
  end

  def test_nonblock_through_getfl_setfl
    r, w = IO.pipe
    fl = r.fcntl(Fcntl::F_GETFL)
    assert_equal Fcntl::O_RDONLY, fl & Fcntl::O_ACCMODE
    assert_equal Fcntl::O_WRONLY, w.fcntl(Fcntl::F_GETFL) & Fcntl::O_ACCMODE
    assert_equal 0, r.fcntl(Fcntl::F_SETFL, fl | Fcntl::O_NONBLOCK)
    assert_equal Fcntl::O_NONBLOCK, r.fcntl(Fcntl::F_GETFL) & Fcntl::O_NONBLOCK
    r.fcntl(Fcntl::F_SETFL, fl & ~Fcntl::O_NONBLOCK)
    assert_equal 0, r.fcntl(Fcntl::F_GETFL) & Fcntl::O_NONBLOCK
  ensure
    r&.close
    w&.close
  end

  def test_cloexec_through_getfd_setfd
    r, w = IO.pipe
    assert_equal Fcntl::FD_CLOEXEC, r.fcntl(Fcntl::F_GETFD) & Fcntl::FD_CLOEXEC
    r.fcntl(Fcntl::F_SETFD, 0)
    assert_equal 0, r.fcntl(Fcntl::F_GETFD) & Fcntl::FD_CLOEXEC
    r.fcntl(Fcntl::F_SETFD, Fcntl::FD_CLOEXEC)
    assert_equal Fcntl::FD_CLOEXEC, r.fcntl(Fcntl::F_GETFD)
    assert r.fcntl(Fcntl::F_GETPIPE_SZ) >= 4096
  ensure
    r&.close
    w&.close
  end

  # (File.open's integer flags are File::Constants: mnrb's differ from Linux's O_* values, so only
  # the ones that agree (O_CREAT, O_WRONLY, O_RDWR) are passed to it here)
  def test_open_flags
    path = "/tmp/mnrb-fcntl-test-#{Process.pid}"
    File.open(path, Fcntl::O_CREAT | Fcntl::O_WRONLY) { |f| f.write "x" }
    File.open(path, "a") do |f|
      fl = f.fcntl(Fcntl::F_GETFL)
      assert_equal [Fcntl::O_APPEND, Fcntl::O_WRONLY], [fl & Fcntl::O_APPEND, fl & Fcntl::O_ACCMODE]
      f.write "y"
    end
    File.open(path, Fcntl::O_RDWR) { |f| assert_equal Fcntl::O_RDWR, f.fcntl(Fcntl::F_GETFL) & Fcntl::O_ACCMODE }
    assert_equal "xy", File.read(path)
  ensure
    File.delete(path) if path && File.exist?(path)
  end
end
