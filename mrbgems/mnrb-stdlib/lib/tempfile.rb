# require "tempfile": Tempfile as CRuby's. Tempfile.new(basename = "", tmpdir = Dir.tmpdir) makes
# a new file, mode 0600, opened read-write, named
# "#{prefix}YYYYMMDD-PID-RANDOM#{suffix}" in tmpdir (basename is the prefix, or [prefix, suffix]);
# the object answers path, size, close(unlink_now), close!, unlink/delete, open (reopen) and, by
# delegation, every method of the File. Tempfile.open with a block closes the file after it and
# returns the block's value; Tempfile.create gives a plain File, and with a block removes it after.
#
# CRuby removes a Tempfile's file when the object is collected, at the latest at exit. mnrb has
# no finalizers: the files of Tempfiles not unlinked are removed at exit (by the process that
# made them), and until then stay on disk even when the object is gone.
require "tmpdir"

class Tempfile
  LIVE = {}   # path => pid of the process that made it, until unlinked

  def self.__remove_live__
    LIVE.each do |path, pid|
      next unless pid == Process.pid
      begin
        File.delete(path)
      rescue SystemCallError
        nil
      end
    end
    LIVE.clear
  end
  at_exit { Tempfile.__remove_live__ }

  def self.__create_file__(basename, tmpdir, mode, perm)
    prefix, suffix = basename.is_a?(Array) ? [basename[0].to_s, basename[1].to_s] : [basename.to_s, ""]
    dir = tmpdir || Dir.tmpdir
    flags = File::RDWR | File::CREAT | File::EXCL | mode.to_i
    tries = 0
    begin
      name = "#{prefix}#{Time.now.strftime("%Y%m%d")}-#{Process.pid}-#{rand(0x100000000).to_s(36)}#{suffix}"
      path = File.join(dir, name)
      [path, File.open(path, flags, perm)]
    rescue Errno::EEXIST => e
      tries += 1
      retry if tries < 100
      raise e
    end
  end

  def self.create(basename = "", tmpdir = nil, mode: 0, **_options)
    _, file = Tempfile.__create_file__(basename, tmpdir, mode, 0600)
    return file unless block_given?
    begin
      yield file
    ensure
      file.close unless file.closed?
      File.delete(file.path) if File.exist?(file.path)
    end
  end

  def self.open(*args, **kw)
    tf = new(*args, **kw)
    return tf unless block_given?
    begin
      yield tf
    ensure
      tf.close
    end
  end

  def initialize(basename = "", tmpdir = nil, mode: 0, **_options)
    @path, @tmpfile = Tempfile.__create_file__(basename, tmpdir, mode, 0600)
    LIVE[@path] = Process.pid
    @mode = mode
    @unlinked = false
  end

  def path
    @unlinked ? nil : @path
  end

  def open
    @tmpfile.close unless @tmpfile.closed?
    @tmpfile = File.open(@path, File::RDWR | @mode.to_i)
    self
  end

  def close(unlink_now = false)
    @tmpfile.close unless @tmpfile.closed?
    unlink if unlink_now
    nil
  end

  def close!
    close(true)
  end

  def unlink
    return if @unlinked
    begin
      File.delete(@path)
    rescue Errno::ENOENT
      nil
    end
    LIVE.delete(@path)
    @unlinked = true
  end
  alias delete unlink

  def size
    if @tmpfile.closed?
      File.size(@path)
    else
      @tmpfile.flush
      File.size(@path)
    end
  end
  alias length size

  def inspect
    "#<Tempfile:#{@path}#{@tmpfile.closed? ? " (closed)" : ""}>"
  end
  alias to_s inspect

  def __getobj__
    @tmpfile
  end

  def respond_to_missing?(name, include_private = false)
    @tmpfile.respond_to?(name, include_private) || super
  end

  def method_missing(name, *args, **kw, &block)
    return super unless @tmpfile.respond_to?(name)
    @tmpfile.__send__(name, *args, **kw, &block)
  end

  # IO's common methods by name, so they reach the File without method_missing.
  [:write, :puts, :print, :printf, :read, :gets, :each_line, :readlines, :rewind, :seek, :pos,
   :flush, :sync, :sync=, :fileno, :closed?, :eof?, :binmode, :<<].each do |m|
    define_method(m) { |*args, &block| @tmpfile.__send__(m, *args, &block) }
  end
end
