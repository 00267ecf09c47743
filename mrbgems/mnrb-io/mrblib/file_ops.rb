# CRuby's File and FileTest methods beyond opening and stat'ing: access tests (readable? and kin),
# mode-bit tests, identical?, split, absolute_path, realdirpath, link, truncate, utime, chown,
# File#chmod/#chown/#to_path, IO#fsync/#fdatasync. The system calls are src/file_ops.c (blocking
# calls without the GVL); the argument handling, as CRuby's, is here.
class File
  # Extended into File and FileTest: each takes a path (String or to_path) or an IO.
  module PathTests
    R_OK = 4
    W_OK = 2
    X_OK = 1

    def _test_stat(path)
      path.is_a?(IO) ? path.stat : File.stat(File._stat_path(path))
    rescue SystemCallError
      nil
    end

    def _test_access(path, mode, real)
      if path.is_a?(IO)
        st = path.stat
        return mode == R_OK ? st.readable? : mode == W_OK ? st.writable? : st.executable?
      end
      File._access(File._stat_path(path), mode, real)
    end

    def readable?(path) = _test_access(path, R_OK, false)
    def writable?(path) = _test_access(path, W_OK, false)
    def executable?(path) = _test_access(path, X_OK, false)
    def readable_real?(path) = _test_access(path, R_OK, true)
    def writable_real?(path) = _test_access(path, W_OK, true)
    def executable_real?(path) = _test_access(path, X_OK, true)

    def world_readable?(path)
      st = _test_stat(path)
      st && st.world_readable?
    end

    def world_writable?(path)
      st = _test_stat(path)
      st && st.world_writable?
    end

    def owned?(path)
      st = _test_stat(path)
      !!st && st.uid == Process.euid
    end

    # the file's group is the effective group or one of the process's supplementary groups
    def grpowned?(path)
      st = _test_stat(path)
      !!st && (st.gid == Process.egid || Process.groups.include?(st.gid))
    end

    def setuid?(path) = !!_test_stat(path)&.setuid?
    def setgid?(path) = !!_test_stat(path)&.setgid?
    def sticky?(path) = !!_test_stat(path)&.sticky?
    def blockdev?(path) = !!_test_stat(path)&.blockdev?
    def chardev?(path) = !!_test_stat(path)&.chardev?

    def identical?(a, b)
      sa = _test_stat(a)
      sb = sa && _test_stat(b)
      !!sb && sa.dev == sb.dev && sa.ino == sb.ino
    end
  end
  extend PathTests
end
FileTest.extend(File::PathTests)

class File

  def self.split(path)
    path = _stat_path(path)
    [dirname(path), basename(path)]
  end

  # expand_path without the home directory: "~" is a name like any other
  def self.absolute_path(path, dir = nil)
    path = _stat_path(path)
    path = "./#{path}" if path.start_with?("~")
    dir ? expand_path(path, absolute_path(dir)) : expand_path(path)
  end

  def self.absolute_path?(path) = _stat_path(path).start_with?("/")

  # realpath, except that the last component need not exist
  def self.realdirpath(path, dir = nil)
    full = absolute_path(path, dir)
    return full if full == "/"
    base = basename(full)
    parent = realpath(dirname(full))
    return realpath(full) if exist?(full)
    parent == "/" ? "/#{base}" : "#{parent}/#{base}"
  end

  def self.link(old, new)
    _link(_stat_path(old), _stat_path(new))
  end

  def self.truncate(path, length)
    _truncate(_stat_path(path), _int_arg(length))
  end

  # utime(atime, mtime, *paths): each time a Time, a number of seconds, or nil (now); the count
  def self.utime(atime, mtime, *paths) = _utime_all(atime, mtime, paths, false)
  def self.lutime(atime, mtime, *paths) = _utime_all(atime, mtime, paths, true)

  def self._utime_all(atime, mtime, paths, nofollow)
    as, an = _time_parts(atime)
    ms, mn = _time_parts(mtime)
    paths.each { |p| _utime(_stat_path(p), as, an, ms, mn, nofollow) }
    paths.size
  end

  def self._time_parts(t)
    case t
    when nil then [nil, 0]
    when Time then [t.to_i, t.nsec]
    when Integer then [t, 0]
    when Numeric
      sec = t.floor
      [sec, ((t - sec) * 1_000_000_000).round]
    else raise TypeError, "can't convert #{t.class} into time"
    end
  end

  # chown(owner, group, *paths): nil or -1 leaves an id as it is; the count
  def self.chown(owner, group, *paths) = _chown_all(owner, group, paths, false)
  def self.lchown(owner, group, *paths) = _chown_all(owner, group, paths, true)

  def self._chown_all(owner, group, paths, nofollow)
    uid = owner.nil? ? -1 : _int_arg(owner)
    gid = group.nil? ? -1 : _int_arg(group)
    paths.each { |p| _chown(_stat_path(p), uid, gid, nofollow) }
    paths.size
  end

  def self._int_arg(v)
    return v if v.is_a?(Integer)
    raise TypeError, "no implicit conversion from nil to integer" if v.nil?
    raise TypeError, "no implicit conversion of #{v.class} into Integer" unless v.respond_to?(:to_int)
    v.to_int
  end

  def chown(owner, group)
    raise IOError, "closed stream" if closed?
    File._chown(fileno, owner.nil? ? -1 : File._int_arg(owner), group.nil? ? -1 : File._int_arg(group), false)
  end

  def chmod(mode)
    raise IOError, "closed stream" if closed?
    _fdop(0, File._int_arg(mode))
  end

  def to_path = path
end

class File
  def self.lchmod(mode, *paths)
    mode = _int_arg(mode)
    paths.each { |p| _lchmod(_stat_path(p), mode) }
    paths.size
  end

  # the file's creation time (statx); NotImplementedError where the file system keeps none
  def self.birthtime(path)
    sec, nsec = path.is_a?(IO) ? _birthtime(path.fileno) : _birthtime(_stat_path(path))
    Time.at(sec, nsec / 1000.0)
  end

  def birthtime
    raise IOError, "closed stream" if closed?
    sec, nsec = File._birthtime(fileno)
    Time.at(sec, nsec / 1000.0)
  end
end

class IO
  # advise(advice, offset = 0, len = 0): posix_fadvise's hint about how the file will be read; nil
  def advise(advice, offset = 0, len = 0)
    raise IOError, "closed stream" if closed?
    _advise(advice, File._int_arg(offset), File._int_arg(len))
  end

  # the file's data (and metadata) on the device: flushes the buffer first; 0
  def fsync
    raise IOError, "closed stream" if closed?
    flush
    _fdop(2, 0)
  end

  def fdatasync
    raise IOError, "closed stream" if closed?
    flush
    _fdop(3, 0)
  end
end
