# File::Stat as CRuby's: File.stat, File.lstat, File#lstat, IO#stat, File.ftype, File.mtime/atime/
# ctime, and the object's fields and predicates. The fields come from stat(2)/lstat(2)/fstat(2)
# (src/file_stat.c, File._stat); the rest is here.
class File
  class Stat
    include Comparable

    S_IFMT = 0o170000
    TYPES = { 0o100000 => "file", 0o040000 => "directory", 0o020000 => "characterSpecial",
              0o060000 => "blockSpecial", 0o010000 => "fifo", 0o120000 => "link",
              0o140000 => "socket" }.freeze

    def self._from(fields)
      st = allocate
      st._fields = fields
      st
    end

    def initialize(path)
      @f = File._stat(File._stat_path(path), 0)
    end

    def _fields=(fields)
      @f = fields
    end

    def dev = @f[0]
    def ino = @f[1]
    def mode = @f[2]
    def nlink = @f[3]
    def uid = @f[4]
    def gid = @f[5]
    def rdev = @f[6]
    def size = @f[7]
    def blksize = @f[8]
    def blocks = @f[9]
    def atime = Time.at(@f[10], @f[11] / 1000.0)
    def mtime = Time.at(@f[12], @f[13] / 1000.0)
    def ctime = Time.at(@f[14], @f[15] / 1000.0)
    def dev_major = dev >> 8 & 0xfff | (dev >> 32 & ~0xfff)
    def dev_minor = dev & 0xff | (dev >> 12 & ~0xff)
    def rdev_major = rdev >> 8 & 0xfff | (rdev >> 32 & ~0xfff)
    def rdev_minor = rdev & 0xff | (rdev >> 12 & ~0xff)

    def ftype = TYPES.fetch(mode & S_IFMT, "unknown")
    def file? = mode & S_IFMT == 0o100000
    def directory? = mode & S_IFMT == 0o040000
    def symlink? = mode & S_IFMT == 0o120000
    def pipe? = mode & S_IFMT == 0o010000
    def socket? = mode & S_IFMT == 0o140000
    def chardev? = mode & S_IFMT == 0o020000
    def blockdev? = mode & S_IFMT == 0o060000
    def setuid? = mode & 0o4000 != 0
    def setgid? = mode & 0o2000 != 0
    def sticky? = mode & 0o1000 != 0
    def zero? = size == 0
    def size? = size == 0 ? nil : size
    def owned? = uid == Process.euid
    def grpowned? = gid == Process.egid
    def world_readable? = mode & 0o004 != 0 ? mode & 0o777 : nil
    def world_writable? = mode & 0o002 != 0 ? mode & 0o777 : nil

    def readable? = _access?(0o400, 0o040, 0o004)
    def writable? = _access?(0o200, 0o020, 0o002)

    def executable?
      return mode & 0o111 != 0 || directory? if Process.euid == 0
      _access?(0o100, 0o010, 0o001)
    end

    def _access?(owner, group, other)
      return true if Process.euid == 0
      return mode & owner != 0 if owned?
      return mode & group != 0 if grpowned?
      mode & other != 0
    end
    private :_access?

    def <=>(other)
      return nil unless other.is_a?(File::Stat)
      mtime <=> other.mtime
    end

    def inspect
      fields = [
        "dev=0x#{dev.to_s(16)}", "ino=#{ino}", "mode=0#{mode.to_s(8)}", "nlink=#{nlink}",
        "uid=#{uid}", "gid=#{gid}", "rdev=0x#{rdev.to_s(16)}", "size=#{size}",
        "blksize=#{blksize}", "blocks=#{blocks}", "atime=#{atime.inspect}",
        "mtime=#{mtime.inspect}", "ctime=#{ctime.inspect}"
      ]
      "#<File::Stat #{fields.join(", ")}>"
    end
  end

  # A path argument as CRuby takes it: a String, or an object with to_path.
  def self._stat_path(path)
    path = path.to_path if !path.is_a?(String) && path.respond_to?(:to_path)
    unless path.is_a?(String)
      raise TypeError, "no implicit conversion of #{path.nil? ? "nil" : path.class} into String"
    end
    path
  end

  def self.stat(path) = Stat._from(_stat(_stat_path(path), 0))
  def self.lstat(path) = Stat._from(_stat(_stat_path(path), 1))
  def self.ftype(path) = lstat(path).ftype
  def self.mtime(path) = stat(path).mtime
  def self.atime(path) = stat(path).atime
  def self.ctime(path) = stat(path).ctime

  def lstat = Stat._from(File._stat(path, 1))
  def mtime = stat.mtime
  def atime = stat.atime
  def ctime = stat.ctime
end

class IO
  def stat
    raise IOError, "closed stream" if closed?
    File::Stat._from(File._stat(fileno, 2))
  end
end
