# ARGF ($<): the concatenation of the files named in ARGV, or standard input when ARGV is empty at the
# first read, as CRuby's. Each file is opened when reading reaches it ("-" is standard input) and its
# name is shifted off ARGV. Kernel#gets, #readline and #readlines read from it. Line numbers ($., lineno)
# count across files. In-place mode (`-i[ext]`, ARGF.inplace_mode=) writes $stdout into each file
# while it is read: the file read is the old one (renamed to name + ext, or unlinked when ext is
# empty), and $stdout is a new file of the same name and mode until the next file.
ARGF = Class.new do
  include Enumerable

  def self.name = "ARGF.class"
  def self.to_s = name
  def self.inspect = name

  def initialize
    @file = nil          # the file being read; nil before the first read and after each file's end
    @filename = nil
    @started = false
    @lineno = 0
    @done = false        # every file was read to its end
    @inplace = nil       # nil: off; a String: the backup suffix ("" none)
    @out = nil           # in-place: the file $stdout writes, and the $stdout it replaced
    @saved_stdout = nil
  end

  def inplace_mode = @inplace
  def inplace_mode=(ext)
    @inplace = ext.nil? ? nil : String(ext)
  end

  def argv = defined?(::ARGV) ? ::ARGV : (@argv ||= [])
  def to_s = "ARGF"
  def inspect = "ARGF"
  def lineno = @lineno
  def lineno=(n)
    @lineno = $. = n
  end

  def filename
    current
    @filename || "-"
  end
  alias_method :path, :filename

  def file
    current || @last || $stdin
  end
  alias_method :to_io, :file
  def fileno = file.fileno

  def gets(*args, **opts)
    while (f = current)
      line = f.gets(*args, **opts)
      if line
        @lineno += 1
        $. = @lineno
        return line
      end
      finish_file
    end
    $_ = nil                           # read through: $_ is nil, as after an IO's gets at its end
  end

  def readline(*args, **opts)
    gets(*args, **opts) or raise EOFError, "end of file reached"
  end

  def readlines(*args, **opts)
    lines = []
    while (l = gets(*args, **opts))
      lines << l
    end
    lines
  end
  alias_method :to_a, :readlines

  def each_line(*args, **opts, &block)
    return to_enum(:each_line, *args, **opts) unless block
    while (l = gets(*args, **opts))
      block.call(l)
    end
    self
  end
  alias_method :each, :each_line

  # read(): everything left in every file ("" at the end); read(n): at most n bytes, across files
  def read(length = nil, outbuf = nil)
    out = +""
    while (f = current)
      chunk = f.read(length && length - out.bytesize)
      out << chunk if chunk
      break if length && out.bytesize >= length
      finish_file
    end
    out = nil if length && length > 0 && out.empty?
    outbuf ? (out ? outbuf.replace(out) : outbuf.clear && nil) : out
  end

  def getc
    while (f = current)
      c = f.getc
      return c if c
      finish_file
    end
    nil
  end

  def readchar = getc || raise(EOFError, "end of file reached")

  def each_char(&block)
    return to_enum(:each_char) unless block
    while (c = getc)
      block.call(c)
    end
    self
  end

  def eof?
    f = current
    f.nil? || f.eof?
  end
  alias_method :eof, :eof?

  def skip
    finish_file if @file
    self
  end

  def close
    current
    finish_file
    self
  end

  def closed? = @file.nil? || @file.closed?
  def binmode = self

  private

  def current
    return @file if @file
    return nil if @done
    names = argv
    if !@started && names.empty?
      @started = true
      @filename = "-"
      return @file = $stdin
    end
    @started = true
    if names.empty?
      @done = true
      return nil
    end
    name = names.shift
    @filename = name
    $FILENAME = name
    if name == "-"
      warn "warning: Can't do inplace edit for stdio" if @inplace
      return @file = $stdin
    end
    @file = File.open(name, "r")
    edit_in_place(name) if @inplace
    @file
  end

  def edit_in_place(name)
    mode = @file.stat.mode & 0o7777
    if @inplace.empty?
      File.unlink(name)                # the open file stays readable
    else
      File.rename(name, name + @inplace)
    end
    @out = File.open(name, "w", mode)
    @saved_stdout ||= $stdout
    $stdout = @out
  end

  def finish_file
    f = @file
    @last = f
    @file = nil
    f.close if f && f != $stdin && !f.closed?
    if @out
      @out.close unless @out.closed?
      @out = nil
      $stdout = @saved_stdout
      @saved_stdout = nil
    end
    @done = true if argv.empty?
  end
end.new
$< = ARGF

module Kernel
  def gets(*args, **opts) = ARGF.gets(*args, **opts)
  def readline(*args, **opts) = ARGF.readline(*args, **opts)
  def readlines(*args, **opts) = ARGF.readlines(*args, **opts)
  private :gets, :readline, :readlines
end
