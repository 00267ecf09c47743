# StringIO: an IO-like object over a String, with the reading and writing methods scripts use
# (read, gets, each_line, readlines, getc, write, <<, print, puts, printf, rewind, seek, pos,
# eof?, string, close). Positions are byte offsets, as in CRuby.
class StringIO
  include Enumerable

  attr_reader :string
  attr_accessor :lineno

  def self.open(string = "", mode = nil)
    io = new(string, mode)
    return io unless block_given?
    begin
      yield io
    ensure
      io.close unless io.closed?
    end
  end

  def initialize(string = "", mode = nil)
    @string = string
    @pos = 0
    @lineno = 0
    @readable = true
    @writable = !string.frozen?
    @closed = false
    @pos = @string.bytesize if mode.is_a?(String) && mode.start_with?("a")
    @string.replace("") if mode.is_a?(String) && mode.start_with?("w")
  end

  def string=(str)
    @string = str
    @pos = 0
    @lineno = 0
  end

  def pos
    @pos
  end
  alias tell pos

  def pos=(n)
    raise Errno::EINVAL, "Invalid argument" if n < 0 && Object.const_defined?(:Errno)
    raise ArgumentError, "negative position" if n < 0
    @pos = n
  end

  def rewind
    @pos = 0
    @lineno = 0
    0
  end

  def seek(offset, whence = 0)
    base = case whence
           when 0, :SET then 0
           when 1, :CUR then @pos
           when 2, :END then @string.bytesize
           else raise ArgumentError, "unknown whence: #{whence}"
           end
    self.pos = base + offset
    0
  end

  def eof?
    check_readable
    @pos >= @string.bytesize
  end
  alias eof eof?

  def size
    @string.bytesize
  end
  alias length size

  def read(length = nil, outbuf = nil)
    check_readable
    rest = @string.bytesize - @pos
    if length.nil?
      data = rest > 0 ? @string.byteslice(@pos, rest) : ""
      @pos += data.bytesize
    else
      raise ArgumentError, "negative length #{length} given" if length < 0
      return (outbuf ? outbuf.replace("") : "") if length == 0
      return nil if rest <= 0
      data = @string.byteslice(@pos, length).force_encoding(Encoding::BINARY)   # bytes, as CRuby's
      @pos += data.bytesize
    end
    data.force_encoding(@encoding) if @encoding && length.nil?
    outbuf ? outbuf.replace(data) : data
  end

  # set_encoding(ext, int = nil): the encoding reads answer in; the String takes it too unless it is
  # frozen, as CRuby's (Rack's MockRequest sets rack.input's to BINARY). nil: the default external.
  def set_encoding(ext, int = nil, **opts)
    enc = if ext.is_a?(Encoding) then ext
          elsif ext.nil? then Encoding.default_external
          else Encoding.find(ext.to_s)
          end
    @encoding = enc
    @string.force_encoding(enc) if @writable && !@string.frozen?
    self
  end

  def external_encoding = @encoding || @string.encoding
  def internal_encoding = nil

  def binmode
    set_encoding(Encoding::BINARY)
  end

  # gets(sep = $/, limit = nil, chomp: false), as CRuby's: sep nil reads the rest, "" a paragraph
  # (blank lines after it skipped); limit caps the bytes read (a character is not split). The line
  # (nil at the end) is also $_, as CRuby's (each_line and readlines leave $_ alone).
  def gets(*args, chomp: false)
    self.__mnrb_last_read_line = getline(args, chomp)
  end

  def readline(*args, **kw)
    gets(*args, **kw) or raise EOFError, "end of file reached"
  end

  def each_line(*args, chomp: false)
    return to_enum(:each_line, *args, chomp: chomp) unless block_given?
    raise ArgumentError, "invalid limit: 0 for each_line" if line_args(args)[1] == 0
    while (line = getline(args, chomp))
      yield line
    end
    self
  end
  alias each each_line

  def readlines(*args, chomp: false)
    raise ArgumentError, "invalid limit: 0 for readlines" if line_args(args)[1] == 0
    lines = []
    each_line(*args, chomp: chomp) { |l| lines << l }
    lines
  end

  private def getline(args, chomp)
    check_readable
    sep, limit = line_args(args)
    return nil if @pos >= @string.bytesize
    return "" if limit == 0
    paragraph = sep == ""
    if paragraph
      skip_newlines
      return nil if @pos >= @string.bytesize
      sep = "\n\n"
    end
    rest = @string.byteslice(@pos, @string.bytesize - @pos)
    i = sep && rest.index(sep)
    line = i ? rest.byteslice(0, rest[0, i].bytesize + sep.bytesize) : rest
    line = cut_at_limit(line, limit) if limit && limit > 0 && line.bytesize > limit
    @pos += line.bytesize
    skip_newlines if paragraph
    @lineno += 1
    chomp && sep && line.end_with?(sep) ? line[0, line.size - sep.size] : line
  end


  def getc
    check_readable
    return nil if @pos >= @string.bytesize
    c = @string.byteslice(@pos, 1)
    @pos += 1
    c
  end

  def write(*objs)
    check_writable
    objs.sum do |obj|
      s = obj.to_s
      if @pos > @string.bytesize
        @string << ("\0" * (@pos - @string.bytesize))
      end
      head = @string.byteslice(0, @pos)
      tail = @string.byteslice(@pos + s.bytesize, @string.bytesize) || ""
      @string.replace(head + s + tail)
      @pos += s.bytesize
      s.bytesize
    end
  end
  alias syswrite write

  def <<(obj)
    write(obj)
    self
  end

  # print: the caller's $_ when called without arguments, as IO#print
  def print(*objs)
    objs = [__mnrb_last_read_line] if objs.empty?
    objs.each { |o| write(o.to_s) }
    nil
  end

  def puts(*objs)
    if objs.empty?
      write("\n")
    else
      objs.flatten.each do |o|
        s = o.nil? ? "" : o.to_s
        write(s.end_with?("\n") ? s : s + "\n")
      end
    end
    nil
  end

  def printf(fmt, *args)
    write(format(fmt, *args))
    nil
  end

  def close
    @closed = true
    nil
  end

  def close_read
    @readable = false
    nil
  end

  def close_write
    @writable = false
    nil
  end

  def closed?
    @closed || (!@readable && !@writable)
  end

  def closed_read?
    @closed || !@readable
  end

  def closed_write?
    @closed || !@writable
  end

  def sync
    true
  end

  def sync=(v)
    v
  end

  def flush
    self
  end

  def fsync
    0
  end

  def isatty
    false
  end
  alias tty? isatty

  def truncate(len)
    check_writable
    @string.replace(len <= @string.bytesize ? @string.byteslice(0, len) : @string + "\0" * (len - @string.bytesize))
    0
  end

  private

  # [separator, limit] of gets' arguments: (), (sep), (limit), (sep, limit); sep defaults to $/
  def line_args(args)
    raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0..2)" if args.size > 2
    sep = __mnrb_input_record_separator
    limit = nil
    if args.size == 2
      sep, limit = args
    elsif args.size == 1
      if args[0].nil? || args[0].is_a?(String) then sep = args[0]
      else limit = args[0]
      end
    end
    sep = sep.to_str unless sep.nil? || sep.is_a?(String)
    limit = limit.to_int unless limit.nil?
    [sep, limit && limit < 0 ? nil : limit]
  end

  def skip_newlines
    @pos += 1 while @string.getbyte(@pos) == 10
  end

  # the first limit bytes of line, widened to the end of a character cut in its middle
  def cut_at_limit(line, limit)
    cut = line.byteslice(0, limit)
    cut = line.byteslice(0, cut.bytesize + 1) until cut.valid_encoding? || cut.bytesize >= line.bytesize
    cut
  end

  def check_readable
    raise IOError, "not opened for reading" if @closed || !@readable
  end

  def check_writable
    raise IOError, "not opened for writing" if @closed || !@writable
  end
end
