# Zlib's Ruby half (`require "zlib"`; src/zstream.c defines the streams and checksums first):
# the one-shot functions and the gzip format (RFC 1952) as CRuby's zlib extension writes and reads
# it: a 10-byte header (magic, method 8, flags, mtime, extra flags from the level, OS code 3),
# the optional name and comment, raw deflate data (wbits -MAX_WBITS), then CRC-32 and length
# (little-endian). Same zlib, same parameters: the same bytes as CRuby's GzipWriter.
module Zlib
  class GzipFile
    class Error < Zlib::Error
      attr_reader :input

      def initialize(msg = nil, input = nil)
        super(msg)
        @input = input
      end

      def inspect
        s = super
        @input && s.end_with?(">") ? "#{s[0, s.size - 1]}, input=#{@input.inspect}>" : s
      end
    end

    class NoFooter < Error; end
    class CRCError < Error; end
    class LengthError < Error; end
  end

  GZ_MAGIC = "\x1f\x8b".b
  GZ_FLAG_MULTIPART = 0x02
  GZ_FLAG_EXTRA = 0x04
  GZ_FLAG_ORIG_NAME = 0x08
  GZ_FLAG_COMMENT = 0x10
  GZ_FLAG_ENCRYPT = 0x20
  GZ_FLAG_UNKNOWN = 0xe0
  private_constant :GZ_MAGIC, :GZ_FLAG_MULTIPART, :GZ_FLAG_EXTRA, :GZ_FLAG_ORIG_NAME,
                   :GZ_FLAG_COMMENT, :GZ_FLAG_ENCRYPT, :GZ_FLAG_UNKNOWN

  class Deflate
    def self.deflate(src, level = DEFAULT_COMPRESSION)
      z = new(level)
      begin
        z.deflate(src, FINISH)
      ensure
        z.close
      end
    end
  end

  class Inflate
    def self.inflate(src)
      z = new
      begin
        out = z.inflate(src)
        out + z.finish
      ensure
        z.close
      end
    end
  end

  class << self
    def deflate(src, level = DEFAULT_COMPRESSION)
      Deflate.deflate(src, level)
    end

    def inflate(src)
      Inflate.inflate(src)
    end

    # Zlib.gzip(src, level: nil, strategy: nil): one gzip member, mtime now, no name
    def gzip(src, level: nil, strategy: nil)
      src = src.to_str
      z = Deflate.new(level || DEFAULT_COMPRESSION, -MAX_WBITS, DEF_MEM_LEVEL, strategy || DEFAULT_STRATEGY)
      begin
        out = GzipFile.__header(level, Time.now.to_i, nil, nil)
        out << z.deflate(src, FINISH)
      ensure
        z.close
      end
      out << [crc32(src), src.bytesize & 0xffffffff].pack("VV")
    end

    # Zlib.gunzip(src): the first member's data; its footer must be whole and right
    def gunzip(src)
      src = src.to_str.b
      h = GzipFile.__parse_header(src, true)
      raise GzipFile::Error, "not in gzip format" unless h
      z = Inflate.new(-MAX_WBITS)
      begin
        out = z.inflate(src.byteslice(h[:size], src.bytesize - h[:size]))
        raise GzipFile::Error, "unexpected end of file" unless z.finished?
        rest = z.__rest || "".b
      ensure
        z.close
      end
      raise GzipFile::Error, "unexpected end of string" if rest.bytesize < 8
      GzipFile.__check_footer(rest, out)
      out
    end
  end

  class GzipFile
    # the header's bytes for a level, mtime (Integer), name and comment (or nil)
    def self.__header(level, mtime, name, comment)
      flags = 0
      flags |= GZ_FLAG_ORIG_NAME if name
      flags |= GZ_FLAG_COMMENT if comment
      xfl = level == BEST_SPEED ? 4 : level == BEST_COMPRESSION ? 2 : 0
      h = [0x1f, 0x8b, 8, flags, mtime & 0xffffffff, xfl, OS_CODE].pack("CCCCVCC")
      h << name.b << "\0" if name
      h << comment.b << "\0" if comment
      h
    end

    # {size:, mtime:, level:, os_code:, orig_name:, comment:} of the header at buf's start; nil
    # when buf is not yet long enough (raises for one that can never be a gzip header)
    def self.__parse_header(buf, whole = false)
      if buf.bytesize < 10 || buf.byteslice(0, 2) != GZ_MAGIC
        return nil if !whole && buf.bytesize < 10 && GZ_MAGIC.start_with?(buf.byteslice(0, 2))
        raise Error, "not in gzip format"
      end
      _, _, method, flags, mtime, xfl, os = buf.unpack("CCCCVCC")
      raise Error, "unsupported compression method #{method}" if method != 8
      raise Error, "multi-part gzip file is not supported" if flags & GZ_FLAG_MULTIPART != 0
      raise Error, "encrypted gzip file is not supported" if flags & GZ_FLAG_ENCRYPT != 0
      raise Error, format("unknown flags 0x%02x", flags) if flags & GZ_FLAG_UNKNOWN != 0
      level = xfl & 2 != 0 ? BEST_COMPRESSION : xfl & 4 != 0 ? BEST_SPEED : DEFAULT_COMPRESSION
      pos = 10
      if flags & GZ_FLAG_EXTRA != 0
        return __short(whole) if buf.bytesize < pos + 2
        pos += 2 + buf.byteslice(pos, 2).unpack1("v")
        return __short(whole) if buf.bytesize < pos
      end
      name = comment = nil
      if flags & GZ_FLAG_ORIG_NAME != 0
        e = buf.index("\0", pos) or return __short(whole)
        name = buf.byteslice(pos, e - pos)
        pos = e + 1
      end
      if flags & GZ_FLAG_COMMENT != 0
        e = buf.index("\0", pos) or return __short(whole)
        comment = buf.byteslice(pos, e - pos)
        pos = e + 1
      end
      { size: pos, mtime: mtime, level: level, os_code: os, orig_name: name, comment: comment }
    end

    def self.__short(whole)
      raise Error, "unexpected end of file" if whole
      nil
    end

    def self.__check_footer(foot, data_crc_or_out, len = nil)
      crc, size = foot.unpack("VV")
      want = len ? data_crc_or_out : Zlib.crc32(data_crc_or_out)
      len ||= data_crc_or_out.bytesize
      raise CRCError, "invalid compressed data -- crc error" if crc != want
      raise LengthError, "invalid compressed data -- length error" if size != (len & 0xffffffff)
    end

    def self.wrap(*args, **opts)
      gz = opts.empty? ? new(*args) : new(*args, **opts)
      return gz unless block_given?
      begin
        yield gz
      ensure
        gz.close unless gz.closed?
      end
    end

    attr_reader :mtime_value
    private :mtime_value

    def to_io = @io
    def crc = @crc
    def level = @level
    def os_code = @os_code
    def orig_name = @orig_name&.dup
    def comment = @comment&.dup
    def sync = @sync
    def sync=(v)
      @sync = v ? true : false
    end

    def mtime
      Time.at(@mtime || 0)
    end

    def closed?
      @closed
    end

    # close: ends the gzip stream and closes the IO (if it has close); the IO
    def close
      io = finish
      io.close if io.respond_to?(:close)
      io
    end

    private

    def check_open
      raise Error, "closed gzip stream" if @closed
    end
  end

  class GzipWriter < GzipFile
    def self.open(path, level = nil, strategy = nil, **opts, &block)
      wrap(File.open(path, "wb"), level, strategy, &block)
    end

    def initialize(io, level = nil, strategy = nil, **opts)
      @io = io
      @level = level || DEFAULT_COMPRESSION
      @z = Deflate.new(@level, -MAX_WBITS, DEF_MEM_LEVEL, strategy || DEFAULT_STRATEGY)
      @crc = 0
      @size = 0
      @mtime = nil
      @orig_name = @comment = nil
      @os_code = OS_CODE
      @header_done = false
      @closed = false
      @sync = false
    end

    def mtime=(t)
      check_header
      @mtime = t.is_a?(Time) ? t.to_i : Integer(t)
      t
    end

    def orig_name=(s)
      check_header
      s = s.to_str
      @orig_name = (i = s.index("\0")) ? s[0, i] : s.dup
    end

    def comment=(s)
      check_header
      s = s.to_str
      @comment = (i = s.index("\0")) ? s[0, i] : s.dup
    end

    def write(*strs)
      n = 0
      strs.each do |s|
        s = s.to_s
        out(s)
        n += s.bytesize
      end
      n
    end

    def <<(s)
      write(s)
      self
    end

    def print(*args)
      args = [nil] if args.empty?
      args.each { |a| write(a.to_s) }
      nil
    end

    def printf(fmt, *args)
      write(format(fmt, *args))
      nil
    end

    def putc(c)
      write(c.is_a?(Integer) ? (c & 0xff).chr : c.to_s[0])
      c
    end

    def puts(*args)
      if args.empty?
        write("\n")
        return nil
      end
      args.each do |a|
        if a.is_a?(Array)
          a.empty? ? nil : puts(*a)
          next
        end
        s = a.nil? ? "" : a.to_s
        write(s)
        write("\n") unless s.end_with?("\n")
      end
      nil
    end

    def flush(flush = SYNC_FLUSH)
      check_open
      header
      @io.write(@z.flush(flush)) if flush != NO_FLUSH
      @io.flush if @io.respond_to?(:flush)
      self
    end

    def pos
      @size
    end
    alias tell pos

    # finish: the footer is written, the IO stays open; the IO
    def finish
      check_open
      header
      data = @z.finish
      @z.close
      @closed = true
      @io.write(data + [@crc, @size & 0xffffffff].pack("VV"))
      @io
    end

    private

    def check_header
      check_open
      raise GzipFile::Error, "header is already written" if @header_done
    end

    def header
      return if @header_done
      @mtime ||= Time.now.to_i
      @io.write(GzipFile.__header(@level, @mtime, @orig_name, @comment))
      @header_done = true
    end

    def out(s)
      check_open
      header
      s = s.b
      @crc = Zlib.crc32(s, @crc)
      @size += s.bytesize
      data = @z.deflate(s, @sync ? SYNC_FLUSH : NO_FLUSH)
      @io.write(data) unless data.empty?
    end
  end

  class GzipReader < GzipFile
    include Enumerable

    READ_SIZE = 2048
    private_constant :READ_SIZE

    def self.open(path, **opts, &block)
      wrap(File.open(path, "rb"), **opts, &block)
    end

    # zcat(io): every member's data, one after another (each block given one chunk)
    def self.zcat(io, **opts)
      out = block_given? ? nil : "".b
      rest = nil
      loop do
        gz = new(io, __pending: rest)
        data = gz.read
        block_given? ? yield(data) : out << data
        rest = gz.unused
        gz.finish
        break if rest.nil? && (io.respond_to?(:eof?) ? io.eof? : true)
      end
      out
    end

    def initialize(io, external_encoding: nil, internal_encoding: nil, encoding: nil, __pending: nil, **opts)
      @io = io
      @start = io.respond_to?(:pos) ? (io.pos rescue nil) : nil
      @start -= __pending.bytesize if @start && __pending
      @closed = false
      @sync = false
      @lineno = 0
      @pos = 0
      @crc = 0
      @size = 0               # bytes inflated (the footer's length)
      @footer_checked = false
      @out = "".b             # inflated bytes not yet read
      @in = __pending ? __pending.b : "".b
      @ended = false          # the io has nothing more
      enc = external_encoding || encoding
      enc = enc.split(":").first if enc.is_a?(String)
      @enc = enc ? (enc.is_a?(Encoding) ? enc : Encoding.find(enc)) : Encoding.default_external
      h = nil
      until (h = GzipFile.__parse_header(@in))
        break unless more_input
      end
      raise GzipFile::Error, "not in gzip format" unless h
      @mtime = h[:mtime]
      @level = h[:level]
      @os_code = h[:os_code]
      @orig_name = h[:orig_name]
      @comment = h[:comment]
      @z = Inflate.new(-MAX_WBITS)
      rest = @in.byteslice(h[:size], @in.bytesize - h[:size])
      @in = "".b
      feed(rest)
    end

    def external_encoding = @enc
    def lineno = @lineno
    def lineno=(n)
      @lineno = n
    end

    def pos
      @pos
    end
    alias tell pos

    def eof?
      check_open
      fill(1)
      @out.empty?
    end
    alias eof eof?

    # read(length = nil, outbuf = nil): everything (in the external encoding) or up to length bytes
    def read(len = nil, outbuf = nil)
      check_open
      if len.nil?
        fill(nil)
        s = take(@out.bytesize)
        s.force_encoding(@enc) unless s.empty?
        return outbuf ? outbuf.replace(s) : s
      end
      len = len.to_int
      raise ArgumentError, "negative length #{len} given" if len < 0
      return (outbuf ? outbuf.replace("".b) : "".b) if len == 0
      fill(len)
      if @out.empty?
        check_footer
        outbuf&.replace("")
        return nil
      end
      s = take(len)
      outbuf ? outbuf.replace(s) : s
    end

    def readpartial(maxlen, outbuf = nil)
      check_open
      raise ArgumentError, "negative length #{maxlen} given" if maxlen < 0
      fill(1)
      raise EOFError, "end of file reached" if @out.empty? && maxlen > 0
      s = take(maxlen)
      outbuf ? outbuf.replace(s) : s
    end

    def getbyte
      check_open
      fill(1)
      return nil if @out.empty?
      take(1).getbyte(0)
    end

    def readbyte
      getbyte or raise EOFError, "end of file reached"
    end

    def each_byte
      return to_enum(:each_byte) unless block_given?
      while (b = getbyte)
        yield b
      end
      nil
    end

    def getc
      check_open
      fill(4)
      return nil if @out.empty?
      s = @out.byteslice(0, 4).force_encoding(@enc)
      c = s[0]
      c = @out.byteslice(0, 1) unless c && c.valid_encoding?
      take(c.bytesize).force_encoding(@enc)
    end

    def readchar
      getc or raise EOFError, "end of file reached"
    end

    def each_char
      return to_enum(:each_char) unless block_given?
      while (c = getc)
        yield c
      end
      nil
    end

    def ungetc(c)
      c = c.is_a?(Integer) ? c.chr(@enc) : c.to_str
      @out = c.b + @out
      @pos -= c.bytesize
      nil
    end

    def ungetbyte(b)
      return nil if b.nil?
      b = b.is_a?(Integer) ? (b & 0xff).chr : b.to_str
      @out = b.b + @out
      @pos -= b.bytesize
      nil
    end

    # gets(sep = "\n", limit = nil, chomp: false)
    def gets(*args, chomp: false)
      check_open
      sep = "\n"
      limit = nil
      case args.size
      when 0
      when 1
        a = args[0]
        if a.nil? || a.is_a?(String)
          sep = a
        else
          limit = a.to_int
        end
      when 2
        sep = args[0]
        limit = args[1]&.to_int
      else
        raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0..2)"
      end
      limit = nil if limit && limit < 0
      return "".force_encoding(@enc) if limit == 0
      paragraph = sep == ""
      if paragraph
        sep = "\n\n"
        skip_newlines
      end
      line = nil
      if sep.nil?
        fill(limit)
        line = take(limit || @out.bytesize)
      else
        sepb = sep.b
        from = 0
        loop do
          i = @out.index(sepb, from)
          if i
            n = i + sepb.bytesize
            n = limit if limit && limit < n
            line = take(n)
            break
          end
          if limit && @out.bytesize >= limit
            line = take(limit)
            break
          end
          from = [@out.bytesize - sepb.bytesize + 1, 0].max
          break unless more_output
        end
        line ||= take(@out.bytesize)
      end
      return nil if line.empty?
      skip_newlines if paragraph
      line.force_encoding(@enc)
      if limit && !line.valid_encoding?   # do not cut a character in two
        3.times do
          break if line.valid_encoding? || @out.empty? && !more_output
          line << take(1).force_encoding(@enc)
        end
      end
      @lineno += 1
      line.chomp!(paragraph ? "" : sep) if chomp && sep
      line
    end

    def readline(*args, **opts)
      gets(*args, **opts) or raise EOFError, "end of file reached"
    end

    def each_line(*args, **opts)
      return to_enum(:each_line, *args, **opts) unless block_given?
      while (line = gets(*args, **opts))
        yield line
      end
      self
    end
    alias each each_line

    def readlines(*args, **opts)
      lines = []
      each_line(*args, **opts) { |l| lines << l }
      lines
    end

    # the bytes read from the IO after this member's footer, or nil
    def unused
      return nil unless @z.finished?
      fill(nil)
      return nil if @in.bytesize <= 8
      @in.byteslice(8, @in.bytesize - 8)
    end

    def rewind
      check_open
      raise GzipFile::Error, "rewind needs a seekable IO" unless @start && @io.respond_to?(:seek)
      @io.seek(@start)
      initialize(@io, external_encoding: @enc)
      0
    end

    def finish
      check_open
      check_footer if @z.finished?
      @z.close
      @closed = true
      @io
    end

    private

    def take(n)
      s = @out.byteslice(0, n)
      @out = @out.byteslice(n, @out.bytesize - n) || "".b
      @pos += s.bytesize
      s
    end

    def skip_newlines
      loop do
        fill(1)
        break if @out.empty? || @out.getbyte(0) != 10
        take(1)
      end
    end

    # reads one chunk from the IO into @in; false when it has no more
    def more_input
      return false if @ended
      chunk = if @io.respond_to?(:readpartial)
                begin
                  @io.readpartial(READ_SIZE)
                rescue EOFError
                  nil
                end
              else
                @io.read(READ_SIZE)
              end
      if chunk.nil? || chunk.empty?
        @ended = true
        return false
      end
      @in << chunk.b
      true
    end

    def feed(bytes)
      return if bytes.empty?
      if @z.finished?
        @in << bytes
        return
      end
      data = @z.inflate(bytes)
      @crc = Zlib.crc32(data, @crc) unless data.empty?
      @size += data.bytesize
      @out << data
      if @z.finished?
        rest = @z.__rest
        @in = rest ? rest.b : "".b
      end
    end

    # inflates more; false at the stream's end (raises if the input ends before it)
    def more_output
      return false if @z.finished?
      until @z.finished?
        before = @out.bytesize
        raise GzipFile::Error, "unexpected end of file" unless more_input
        chunk = @in
        @in = "".b
        feed(chunk)
        return true if @out.bytesize > before
      end
      true
    end

    # until @out holds n bytes (n nil: all) or the stream ends
    def fill(n)
      while n.nil? || @out.bytesize < n
        break unless more_output
      end
    end

    def check_footer
      return if @footer_checked
      while @in.bytesize < 8
        raise GzipFile::NoFooter, "footer is not found" unless more_input
      end
      @footer_checked = true
      GzipFile.__check_footer(@in.byteslice(0, 8), @crc, @size)
    end
  end
end
