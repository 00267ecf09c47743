# File and FileTest methods beyond open and stat: the access predicates (readable? and kin, false for
# a missing file), the mode-bit predicates, identical?, split, absolute_path, realdirpath, link,
# truncate, utime/lutime, chown/lchown, File#chmod/#chown/#to_path, IO#fsync/#fdatasync. Expected
# values are CRuby 3.1's (this file passes there too).
require "tmpdir"

class FileOpsTest < MnTest::Case
  def with_dir
    Dir.mktmpdir { |dir| yield dir }
  end

  def test_access_predicates_on_a_file_and_a_missing_path
    with_dir do |dir|
      path = File.join(dir, "f")
      File.write(path, "x")
      File.chmod(0o644, path)
      [File, FileTest].each do |c|
        assert_equal [true, true], [c.readable?(path), c.writable?(path)]
        assert_equal [true, true], [c.readable_real?(path), c.writable_real?(path)]
        assert_equal false, c.executable?(path)
        assert_equal false, c.executable_real?(path)
        missing = File.join(dir, "missing")
        %i[readable? writable? executable? readable_real? writable_real? executable_real?
           world_readable? world_writable? owned? grpowned? setuid? setgid? sticky?
           blockdev? chardev?].each do |m|
          assert_equal m.to_s.start_with?("world") ? nil : false, c.send(m, missing), m
        end
      end
      File.chmod(0o755, path)
      assert_equal true, File.executable?(path)
      assert_equal true, File.executable?(dir)
    end
  end

  def test_access_follows_the_effective_user
    with_dir do |dir|
      path = File.join(dir, "f")
      File.write(path, "x")
      File.chmod(0o000, path)
      # root may read and write anything; anyone else may not read a mode-000 file
      assert_equal Process.euid == 0, File.readable?(path)
      assert_equal Process.euid == 0, File.writable?(path)
      assert_equal false, File.executable?(path)
    end
  end

  def test_mode_bit_predicates
    with_dir do |dir|
      path = File.join(dir, "f")
      File.write(path, "x")
      File.chmod(0o644, path)
      assert_equal 0o644, File.world_readable?(path)
      assert_nil File.world_writable?(path)
      File.chmod(0o666, path)
      assert_equal 0o666, File.world_writable?(path)
      assert_equal [false, false, false], [File.setuid?(path), File.setgid?(path), File.sticky?(path)]
      File.chmod(0o6755, path)
      assert_equal [true, true], [File.setuid?(path), File.setgid?(path)]
      File.chmod(0o1777, dir)
      assert_equal true, File.sticky?(dir)
      assert_equal true, File.owned?(path)
      assert_equal true, File.grpowned?(path)
      assert_equal true, File.chardev?("/dev/null")
      assert_equal false, File.blockdev?("/dev/null")
      assert_equal false, File.chardev?(path)
      File.open(path) { |f| assert_equal true, File.readable?(f) }
    end
  end

  def test_identical
    with_dir do |dir|
      a = File.join(dir, "a")
      File.write(a, "x")
      assert_equal true, File.identical?(a, a)
      assert_equal true, File.identical?(dir, "#{dir}/")
      assert_equal true, FileTest.identical?(a, File.join(dir, ".", "a"))
      b = File.join(dir, "b")
      assert_equal 0, File.link(a, b)
      assert_equal true, File.identical?(a, b)
      assert_equal 2, File.stat(a).nlink
      File.write(File.join(dir, "c"), "x")
      assert_equal false, File.identical?(a, File.join(dir, "c"))
      assert_equal false, File.identical?(a, File.join(dir, "missing"))
    end
  end

  def test_link_errors
    with_dir do |dir|
      a = File.join(dir, "a")
      e = assert_raise(Errno::ENOENT) { File.link(File.join(dir, "missing"), a) }
      assert_include e.message, "missing"
      File.write(a, "x")
      assert_raise(Errno::EEXIST) { File.link(a, a) }
      assert_raise(TypeError) { File.link(1, a) }
    end
  end

  def test_split
    assert_equal ["/a/b", "c"], File.split("/a/b/c")
    assert_equal [".", "a"], File.split("a")
    assert_equal ["/", "/"], File.split("/")
    assert_equal [".", "a"], File.split("a/")
    assert_raise(TypeError) { File.split(nil) }
  end

  def test_absolute_path
    assert_equal "/tmp/~", File.absolute_path("~", "/tmp")
    assert_equal "/tmp/x", File.absolute_path("x", "/tmp")
    assert_equal "/a/c", File.absolute_path("/a/b/../c")
    assert_equal File.join(Dir.pwd, "x"), File.absolute_path("x")
    assert_equal true, File.absolute_path?("/a")
    assert_equal false, File.absolute_path?("a")
    assert_equal false, File.absolute_path?("~")
  end

  def test_realdirpath
    with_dir do |dir|
      real = File.realpath(dir)
      assert_equal File.join(real, "missing"), File.realdirpath(File.join(dir, "missing"))
      assert_equal File.join(real, "missing"), File.realdirpath("missing", dir)
      File.write(File.join(dir, "f"), "")
      File.symlink(File.join(dir, "f"), File.join(dir, "l"))
      assert_equal File.join(real, "f"), File.realdirpath(File.join(dir, "l"))
      assert_equal "/", File.realdirpath("/")
      assert_raise(Errno::ENOENT) { File.realdirpath(File.join(dir, "no", "x")) }
    end
  end

  def test_truncate
    with_dir do |dir|
      path = File.join(dir, "f")
      File.write(path, "hello")
      assert_equal 0, File.truncate(path, 2)
      assert_equal "he", File.read(path)
      assert_equal 0, File.truncate(path, 4)
      assert_equal "he\0\0", File.read(path)
      e = assert_raise(Errno::ENOENT) { File.truncate(File.join(dir, "missing"), 0) }
      assert_include e.message, "missing"
      assert_raise(TypeError) { File.truncate(path, nil) }
    end
  end

  def test_utime
    with_dir do |dir|
      a = File.join(dir, "a")
      b = File.join(dir, "b")
      File.write(a, "")
      File.write(b, "")
      t = Time.at(1_000_000_000)
      assert_equal 2, File.utime(t, t + 10, a, b)
      assert_equal 1_000_000_000, File.atime(a).to_i
      assert_equal 1_000_000_010, File.mtime(b).to_i
      assert_equal 1, File.utime(5, 7.5, a)
      assert_equal 7, File.mtime(a).to_i
      assert_equal 5, File.atime(a).to_i
      assert_equal 1, File.utime(nil, nil, a)
      assert (Time.now - File.mtime(a)).abs < 60
      assert_equal 0, File.utime(nil, nil)
      File.symlink(a, File.join(dir, "l"))
      assert_equal 1, File.lutime(t, t, File.join(dir, "l"))
      assert_equal 1_000_000_000, File.lstat(File.join(dir, "l")).mtime.to_i
      assert (Time.now - File.mtime(a)).abs < 60
      assert_raise(Errno::ENOENT) { File.utime(nil, nil, File.join(dir, "missing")) }
    end
  end

  def test_chown_and_chmod
    with_dir do |dir|
      path = File.join(dir, "f")
      File.write(path, "")
      uid = Process.euid
      gid = Process.egid
      assert_equal 1, File.chown(nil, nil, path)
      assert_equal 1, File.chown(-1, -1, path)
      assert_equal 1, File.chown(uid, gid, path)
      assert_equal 1, File.lchown(uid, gid, path)
      assert_equal 0, File.chown(nil, nil)
      assert_raise(Errno::ENOENT) { File.chown(nil, nil, File.join(dir, "missing")) }
      File.open(path, "r+") do |f|
        assert_equal 0, f.chown(uid, gid)
        assert_equal 0, f.chmod(0o600)
        assert_equal 0o600, File.stat(path).mode & 0o777
        assert_equal path, f.to_path
        f.write("data")
        assert_equal 0, f.fsync
        assert_equal 0, f.fdatasync
        assert_equal "data", File.read(path)
      end
      f = File.open(path)
      f.close
      assert_raise(IOError) { f.chmod(0o600) }
      assert_raise(IOError) { f.fsync }
    end
  end

  def test_lchmod
    with_dir do |dir|
      path = File.join(dir, "f")
      File.write(path, "")
      assert_equal 1, File.lchmod(0o600, path)
      assert_equal 0o600, File.stat(path).mode & 0o777
      File.symlink(path, File.join(dir, "l"))
      assert_raise(Errno::ENOTSUP) { File.lchmod(0o644, File.join(dir, "l")) }
      assert_raise(Errno::ENOENT) { File.lchmod(0o644, File.join(dir, "missing")) }
    end
  end

  def test_birthtime
    with_dir do |dir|
      path = File.join(dir, "f")
      File.write(path, "")
      begin
        t = File.birthtime(path)
      rescue NotImplementedError => e
        assert_equal "birthtime is unimplemented on this filesystem", e.message
        return
      end
      assert_kind_of Time, t
      assert (Time.now - t).abs < 60
      File.open(path) { |f| assert_equal t.to_i, f.birthtime.to_i }
      assert_raise(Errno::ENOENT) { File.birthtime(File.join(dir, "missing")) }
    end
  end

  def test_advise_and_fcntl
    File.open(__FILE__) do |f|
      assert_nil f.advise(:sequential)
      assert_nil f.advise(:willneed, 0, 100)
      e = assert_raise(NotImplementedError) { f.advise(:foo) }
      assert_equal "Unsupported advice: :foo", e.message
      e = assert_raise(TypeError) { f.advise("normal") }
      assert_equal "advice must be a Symbol", e.message
      # F_GETFD (1): close-on-exec is set on a file Ruby opens
      assert_equal 1, f.fcntl(1) & 1
    end
    r, w = IO.pipe
    assert_raise(Errno::ESPIPE) { r.advise(:normal) }
    r.close
    w.close
    assert_raise(IOError) { r.advise(:normal) }
    assert_raise(IOError) { r.fcntl(1) }
  end
end
