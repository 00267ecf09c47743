# require "pathname": Pathname, a path name as a value, as CRuby's has it (Unix paths).
#
# A Pathname holds a String of its own (a copy of what it was made from; to_s answers another
# copy, so neither side can change the other's). The name operations (+, join, parent,
# cleanpath, relative_path_from, each_filename, ascend) work on the text alone, never asking the
# file system; the file operations pass the path to File, Dir, FileTest and FileUtils.
class Pathname
  VERSION = "0.4.0"

  def initialize(path)
    path = path.to_path if !path.is_a?(String) && path.respond_to?(:to_path)
    path = path.to_str if !path.is_a?(String) && path.respond_to?(:to_str)
    unless path.is_a?(String)
      raise TypeError, "no implicit conversion of #{path.nil? ? 'nil' : path.class} into String"
    end
    raise ArgumentError, "pathname contains null byte" if path.include?("\0")
    @path = path.dup
  end

  def self.getwd = new(Dir.getwd)
  def self.pwd = new(Dir.getwd)

  # Dir.glob's matches as Pathnames (yielded, then nil, with a block).
  def self.glob(*args, **kw)
    found = Dir.glob(*args, **kw).map { |f| new(f) }
    return found unless block_given?
    found.each { |f| yield f }
    nil
  end

  def to_s = @path.dup
  alias to_path to_s

  def inspect = "#<#{self.class}:#{@path}>"

  def freeze
    @path.freeze
    super
  end

  def ==(other)
    other.is_a?(Pathname) && @path == other.to_s
  end
  alias === ==
  alias eql? ==

  # Ordered by the path's bytes, a separator before any other byte ("a/b" < "a-b").
  def <=>(other)
    return nil unless other.is_a?(Pathname)
    @path.tr("/", "\0") <=> other.to_s.tr("/", "\0")
  end

  def hash = @path.hash

  def sub(*args, &block)
    self.class.new(block ? @path.sub(*args, &block) : @path.sub(*args))
  end

  def sub_ext(repl)
    ext = File.extname(@path)
    self.class.new(@path[0, @path.size - ext.size] + repl)
  end

  def absolute? = @path.start_with?("/")
  def relative? = !absolute?
  def root? = !@path.empty? && @path.delete("/").empty?

  # The names between separators, in order ("/a//b/" gives "a", "b").
  def each_filename(&block)
    return enum_for(:each_filename) unless block
    __names__(@path).each(&block)
    nil
  end

  # Self, then each path made by dropping the last name, up to the first name (or the root).
  def ascend
    return enum_for(:ascend) unless block_given?
    names = __names__(@path)
    yield self
    prefix = absolute? ? "/" : ""
    (names.size - 1).downto(1) { |n| yield self.class.new(prefix + names[0, n].join("/")) }
    yield self.class.new("/") if absolute? && !names.empty?
    nil
  end

  def descend
    return enum_for(:descend) unless block_given?
    ascend.to_a.reverse_each { |p| yield p }
    nil
  end

  # The path with "." and doubled separators gone and each "name/.." resolved, on the text.
  # With consider_symlink, ".." stays (a name before it may be a symlink), and so does a trailing
  # separator or "/.".
  def cleanpath(consider_symlink = false)
    self.class.new(consider_symlink ? __clean_conservative__ : __clean__(@path))
  end

  def parent = self + ".."

  def +(other)
    other = Pathname.new(other) unless other.is_a?(Pathname)
    Pathname.new(__plus__(@path, other.to_s))
  end
  alias / +

  def join(*args)
    return self if args.empty?
    result = args.pop
    result = Pathname.new(result) unless result.is_a?(Pathname)
    return result if result.absolute?
    args.reverse_each do |arg|
      arg = Pathname.new(arg) unless arg.is_a?(Pathname)
      result = arg + result
      return result if result.absolute?
    end
    self + result
  end

  # The relative path that leads from base_directory to self, on the text (both cleaned).
  def relative_path_from(base_directory)
    base_directory = Pathname.new(base_directory) unless base_directory.is_a?(Pathname)
    dest = __names__(__clean__(@path)) - ["."]
    base = __names__(__clean__(base_directory.to_s)) - ["."]
    if absolute? != base_directory.absolute?
      raise ArgumentError, "different prefix: #{(absolute? ? '/' : '').inspect} and " \
                           "#{base_directory.to_s.inspect}"
    end
    while !dest.empty? && !base.empty? && dest.first == base.first
      dest.shift
      base.shift
    end
    raise ArgumentError, "base_directory has ..: #{base_directory.to_s.inspect}" if base.include?("..")
    names = [".."] * base.size + dest
    Pathname.new(names.empty? ? "." : names.join("/"))
  end

  def children(with_directory = true)
    Dir.children(@path).map { |e| with_directory ? self + e : Pathname.new(e) }
  end

  def each_child(with_directory = true, &block)
    children(with_directory).each(&block)
  end

  def entries = Dir.entries(@path).map { |e| Pathname.new(e) }

  def each_entry
    Dir.foreach(@path) { |e| yield Pathname.new(e) }
  end

  def opendir(&block) = Dir.open(@path, &block)

  def glob(*args, **kw)
    found = Dir.glob(*args, base: @path, **kw).map { |f| self + f }
    return found unless block_given?
    found.each { |f| yield f }
    nil
  end

  def mkdir(*args) = Dir.mkdir(@path, *args)
  def rmdir = Dir.rmdir(@path)

  def mkpath(mode: nil)
    require "fileutils"
    mode ? FileUtils.mkpath(@path, mode: mode) : FileUtils.mkpath(@path)
    self
  end

  def rmtree(noop: nil, verbose: nil, secure: nil)
    require "fileutils"
    FileUtils.rm_rf(@path, noop: noop, verbose: verbose)
    self
  end

  # Each file under the path, depth first, as Pathnames (Find.find).
  def find(ignore_error: true)
    unless block_given?
      # (mnrb's enum_for would pass the keyword on as a Hash)
      return Enumerator.new { |y| find(ignore_error: ignore_error) { |f| y << f } }
    end
    require "find"
    dot = @path == "."
    Find.find(@path, ignore_error: ignore_error) do |f|
      yield Pathname.new(dot && f.start_with?("./") ? f[2..] : f)
    end
  end

  def unlink
    if File.directory?(@path) && !File.symlink?(@path)
      Dir.unlink(@path)
    else
      File.unlink(@path)
    end
  end
  alias delete unlink

  def realpath(*args) = Pathname.new(File.realpath(@path, *args))
  def realdirpath(*args) = Pathname.new(File.realdirpath(@path, *args))
  def expand_path(*args) = Pathname.new(File.expand_path(@path, *args))
  def basename(*args) = Pathname.new(File.basename(@path, *args))
  def dirname = Pathname.new(File.dirname(@path))
  def extname = File.extname(@path)
  def split = File.split(@path).map { |s| Pathname.new(s) }
  def readlink = Pathname.new(File.readlink(@path))

  def mountpoint?
    here = File.lstat(@path)
    up = File.lstat((self + "..").to_s)
    here.dev != up.dev || here.ino == up.ino
  rescue SystemCallError
    false
  end

  def empty? = File.directory?(@path) ? Dir.empty?(@path) : File.empty?(@path)

  # File's methods that take the path first.
  def read(*args, **kw) = File.read(@path, *args, **kw)
  def binread(*args) = File.binread(@path, *args)
  def readlines(*args, **kw) = File.readlines(@path, *args, **kw)
  def write(*args, **kw) = File.write(@path, *args, **kw)
  def binwrite(*args, **kw) = File.binwrite(@path, *args, **kw)
  def each_line(*args, **kw, &block) = File.foreach(@path, *args, **kw, &block)
  def open(*args, **kw, &block) = File.open(@path, *args, **kw, &block)
  def atime = File.atime(@path)
  def mtime = File.mtime(@path)
  def ctime = File.ctime(@path)
  def stat = File.stat(@path)
  def lstat = File.lstat(@path)
  def ftype = File.ftype(@path)
  def chmod(mode) = File.chmod(mode, @path)
  def truncate(length) = File.truncate(@path, length)
  def utime(atime, mtime) = File.utime(atime, mtime, @path)
  def rename(to) = File.rename(@path, to)
  def make_link(old) = File.link(old, @path)
  def make_symlink(old) = File.symlink(old, @path)
  def fnmatch(pattern, *args) = File.fnmatch(pattern, @path, *args)
  alias fnmatch? fnmatch

  # FileTest's questions about the path.
  def exist? = File.exist?(@path)
  def file? = File.file?(@path)
  def directory? = File.directory?(@path)
  def symlink? = File.symlink?(@path)
  def readable? = File.readable?(@path)
  def writable? = File.writable?(@path)
  def executable? = File.executable?(@path)
  def size = File.size(@path)
  def size? = File.size?(@path)
  def zero? = File.zero?(@path)
  def pipe? = File.pipe?(@path)
  def socket? = File.socket?(@path)
  def owned? = File.owned?(@path)
  def world_readable? = File.world_readable?(@path)
  def world_writable? = File.world_writable?(@path)
  def blockdev? = File.blockdev?(@path)
  def chardev? = File.chardev?(@path)
  def setuid? = File.setuid?(@path)
  def setgid? = File.setgid?(@path)
  def sticky? = File.sticky?(@path)

  private

  def __names__(path) = path.split("/").reject(&:empty?)

  def __clean__(path)
    abs = path.start_with?("/")
    kept = []
    __names__(path).each do |name|
      next if name == "."
      if name == ".." && !kept.empty? && kept.last != ".."
        kept.pop
      elsif name == ".." && kept.empty? && abs
        next                                     # "/.." is "/"
      else
        kept << name
      end
    end
    return abs ? "/" : "." if kept.empty?
    (abs ? "/" : "") + kept.join("/")
  end

  def __clean_conservative__
    abs = absolute?
    names = __names__(@path).reject { |n| n == "." }
    names.shift while abs && names.first == ".."
    return abs ? "/" : "." if names.empty?
    last = __names__(@path).last
    names << "." if last == "." && names.last != ".."
    result = (abs ? "/" : "") + names.join("/")
    result += "/" if @path.end_with?("/") && names.last != "." && names.last != ".."
    result
  end

  # [the text before the last name, the last name], or nil when there is no name (empty, or the
  # root). The text keeps what separators it had: "a//b/" gives ["a//", "b"].
  def __chop__(path)
    return nil if path.empty?
    name = File.basename(path)
    return nil if name.empty? || name.delete("/").empty?
    [path[0, path.rindex(name)], name]
  end

  # base + rel on the text. rel's leading "."s go; base's last names go while rel begins with
  # ".." (each taking one; a "." of base just goes), the root absorbing any ".." left. What is
  # kept of each is kept as written ("a//b/" + "c/" is "a//b/c/").
  def __plus__(base, rel)
    names = []
    starts = []
    rest = rel
    while (r = __chop__(rest))
      rest, name = r
      names.unshift(name)
      starts.unshift(rest.size)
    end
    return rel unless rest.empty?                  # rel is absolute
    while names.first == "."
      names.shift
      starts.shift
    end
    kept = base
    while (r = __chop__(kept))
      head, name = r
      if name == "."
        kept = head
        next
      end
      if name == ".." || names.first != ".."
        kept = head + name
        break
      end
      kept = head
      names.shift
      starts.shift
    end
    if !__chop__(kept) && kept.include?("/")       # only the root is left
      while names.first == ".."
        names.shift
        starts.shift
      end
    end
    return kept.empty? ? "." : kept if names.empty?
    tail = rel[starts.first..]
    return tail if kept.empty?
    kept.end_with?("/") ? kept + tail : "#{kept}/#{tail}"
  end
end

module Kernel
  # The argument if it is a Pathname already, else Pathname.new(path).
  def Pathname(path)
    return path if path.is_a?(Pathname)
    Pathname.new(path)
  end
  private :Pathname
end
