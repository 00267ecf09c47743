# The encodings of what IO reads, as CRuby gives them (with no encoding set): text reads (read with no length, gets,
# each_line, getc) are UTF-8 (Encoding.default_external), byte reads (read(length), readpartial,
# sysread, read_nonblock) and every read of a binmode IO ("rb", #binmode) are ASCII-8BIT.
# A buffer passed to read keeps its own encoding, as CRuby 3.1 does. IO.binread is here too.
class IO
  # The encoding options taken off an open's keywords (a copy): [kw, the mode's encodings or
  # encoding:'s (spec, when given, wins), external_encoding:, internal_encoding:]
  def self.__mnrb_encoding_kw(kw, spec)
    return [kw, spec, nil, nil] if kw.empty?
    kw = kw.dup
    if kw[:mode].is_a?(String) && kw[:mode].include?(":")
      kw[:mode], spec = kw[:mode].split(":", 2)
    end
    e = kw.delete(:encoding)
    [kw, spec || e, kw.delete(:external_encoding), kw.delete(:internal_encoding)]
  end

  module ::MNRB::IOBinaryReads
    def read(length = nil, outbuf = nil)
      s = outbuf.nil? ? super(length) : super(length, outbuf)
      s.force_encoding(Encoding::BINARY) if s && outbuf.nil? && (length || __binmode_p)
      s
    end

    def readpartial(*args)
      s = super
      s.force_encoding(Encoding::BINARY) if args.size < 2
      s
    end

    def sysread(*args)
      s = super
      s.force_encoding(Encoding::BINARY) if args.size < 2
      s
    end

    def read_nonblock(*args, **opts)
      s = super
      s.force_encoding(Encoding::BINARY) if s.is_a?(String) && args.size < 2
      s
    end

    def gets(*args, **opts)
      s = super
      s.force_encoding(Encoding::BINARY) if s && __binmode_p
      s
    end

    # binmode and "b" in an open mode, remembered here (mnrb-io keeps no such flag); the
    # encodings of a mode ("r:ISO-8859-1:UTF-8", "r:BOM|UTF-8") and the encoding:,
    # external_encoding: and internal_encoding: options are taken off here (IOEncodings below)
    def initialize(*args, **kw, &blk)
      spec = nil
      if args[1].is_a?(String) && args[1].include?(":")
        args = args.dup
        args[1], spec = args[1].split(":", 2)
      end
      kw, spec, ext, int = IO.__mnrb_encoding_kw(kw, spec)
      kw.empty? ? super(*args, &blk) : super(*args, **kw, &blk)
      mode = args[1].is_a?(String) || args[1].is_a?(Integer) ? args[1] : kw[:mode]
      @__mnrb_binmode = true if (mode.is_a?(String) && mode.include?("b")) || kw[:binmode]
      @__mnrb_wonly = mode.is_a?(String) ? (mode.start_with?("w", "a") && !mode.include?("+")) :
                      mode.is_a?(Integer) && (mode & 3) == File::WRONLY
      __enc_setup(spec, ext, int, true) if spec || ext || int
    end

    def binmode   # reads become ASCII-8BIT; mnrb does no newline conversion to switch off
      @__mnrb_binmode = true
      @__mnrb_ext = nil
      @__mnrb_int = nil
      self
    end

    def binmode?
      @__mnrb_binmode ? true : false
    end

    private

    def __binmode_p
      @__mnrb_binmode
    end
  end
  prepend ::MNRB::IOBinaryReads

  # The encodings of text an IO reads and writes, as CRuby's: reads (read with no length, gets,
  # each_line, readlines, getc, each_char) give Strings in the external encoding, converted to
  # the internal one when there is one; writes convert each String to the external encoding when
  # one was set. A stream in an ASCII-incompatible encoding (UTF-16/32) needs binmode or an
  # internal encoding (CRuby's "ASCII incompatible encoding needs binmode"); its lines are found
  # after conversion (the rest of the stream is read at the first gets). "BOM|" looks for a byte
  # order mark at the start. Only while an encoding is set do these wrappers do anything.
  module ::MNRB::IOEncodings
    # (methods, not constants: a fresh ractor makes no objects for them)
    def __enc_boms = [["\xEF\xBB\xBF", "UTF-8"], ["\xFF\xFE\x00\x00", "UTF-32LE"], ["\x00\x00\xFE\xFF", "UTF-32BE"],
                      ["\xFF\xFE", "UTF-16LE"], ["\xFE\xFF", "UTF-16BE"]]

    def external_encoding
      return @__mnrb_ext if @__mnrb_ext
      return Encoding::BINARY if @__mnrb_binmode
      @__mnrb_wonly ? nil : Encoding.default_external
    end

    def internal_encoding
      @__mnrb_int
    end

    # set_encoding(ext, int = nil) / set_encoding("ext:int") / set_encoding(nil)
    def set_encoding(ext, int = nil, **opts)
      @__mnrb_ext = @__mnrb_int = nil
      @__mnrb_lines = nil
      if ext.is_a?(String) && ext.include?(":") && int.nil?
        __enc_setup(ext, nil, nil, false)
      elsif !ext.nil?
        __enc_setup(nil, ext, int, false)
      end
      self
    end

    def set_encoding_by_bom
      raise ArgumentError, "ASCII incompatible encoding needs binmode" unless @__mnrb_binmode
      e = __enc_bom
      @__mnrb_ext = e
      e
    end

    def read(length = nil, outbuf = nil)
      return super if length || !@__mnrb_ext
      if @__mnrb_lines
        s = @__mnrb_lines
        @__mnrb_lines = nil
        return s
      end
      s = super
      s = __enc_text(s) if s
      s = outbuf.replace(s) if s && outbuf
      s
    end

    def gets(*args, **opts)
      return super unless @__mnrb_ext
      return __enc_buffered_gets(*args, **opts) if !@__mnrb_ext.ascii_compatible? && @__mnrb_int
      s = super
      s && __enc_text(s)
    end

    def readline(*args, **opts)
      return super unless @__mnrb_ext
      gets(*args, **opts) or raise EOFError, "end of file reached"
    end

    def readlines(*args, **opts)
      return super unless @__mnrb_ext
      lines = []
      while (l = gets(*args, **opts))
        lines << l
      end
      lines
    end

    def getc
      return super unless @__mnrb_ext
      if @__mnrb_lines
        c = @__mnrb_lines[0]
        @__mnrb_lines = @__mnrb_lines[1..]
        @__mnrb_lines = nil if @__mnrb_lines.empty?
        return c
      end
      c = __mnrb_getbytes(1)
      return nil unless c
      c.force_encoding(@__mnrb_ext)
      while !c.valid_encoding? && c.bytesize < 4 && (b = __mnrb_getbytes(1))
        c = (c.b << b).force_encoding(@__mnrb_ext)
      end
      @__mnrb_int ? c.encode(@__mnrb_int, @__mnrb_ext) : c
    end

    def readchar
      return super unless @__mnrb_ext
      getc or raise EOFError, "end of file reached"
    end

    def each_char
      return super unless @__mnrb_ext
      return to_enum(:each_char) unless block_given?
      while (c = getc)
        yield c
      end
      self
    end

    def write(*objs)
      return super unless @__mnrb_ext && @__mnrb_ext != Encoding::BINARY
      super(*objs.map { |o| __enc_out(o) })
    end

    def puts(*objs)
      return super unless @__mnrb_ext && @__mnrb_ext != Encoding::BINARY
      return write("\n") && nil if objs.empty?
      parts = []
      _puts_parts(objs, parts, [])
      write(*parts)
      nil
    end

    private

    def __mnrb_getbytes(n)
      s = read(n)   # a length: the bytes as they are (ASCII-8BIT)
      s && s.force_encoding(Encoding::BINARY)
    end

    def __enc_out(o)
      s = o.is_a?(String) ? o : o.to_s
      return s if s.encoding == @__mnrb_ext || s.encoding == Encoding::BINARY
      s.encode(@__mnrb_ext)
    end

    def __enc_text(s)
      s.force_encoding(@__mnrb_ext)
      @__mnrb_int ? s.encode(@__mnrb_int, @__mnrb_ext) : s
    end

    # lines of a stream in UTF-16/32, found in its conversion to the internal encoding
    def __enc_buffered_gets(sep = $/, limit = nil, chomp: false)
      unless @__mnrb_lines
        raw = "".b
        while (chunk = read(65536))
          raw << chunk
        end
        return nil if raw.empty?
        @__mnrb_lines = raw.force_encoding(@__mnrb_ext).encode(@__mnrb_int, @__mnrb_ext)
      end
      buf = @__mnrb_lines
      return nil if buf.nil? || buf.empty?
      i = sep ? buf.index(sep) : nil
      line = i ? buf[0, i + sep.size] : buf
      rest = buf[line.size..]
      @__mnrb_lines = rest.nil? || rest.empty? ? "" : rest
      chomp && sep && line.end_with?(sep) ? line[0, line.size - sep.size] : line
    end

    def __enc_find(e)
      return nil if e.nil? || e == "-"
      e.is_a?(Encoding) ? e : Encoding.find(e.to_s)
    end

    def __enc_bom
      pos = self.pos
      head = __mnrb_getbytes(4) || "".b
      found = __enc_boms.find { |b, _| head.start_with?(b.b) }
      seek(pos + (found ? found[0].bytesize : 0))
      found && Encoding.find(found[1])
    end

    def __enc_setup(spec, ext, int, opening)
      if spec
        ext, int = spec.is_a?(String) ? spec.split(":", 2) : [spec, nil]
      end
      bom = false
      if ext.is_a?(String) && ext =~ /\ABOM\|/i
        bom = true
        ext = ext[4..]
      end
      ext = __enc_find(ext)
      int = __enc_find(int)
      int = nil if int == ext
      if ext && !ext.ascii_compatible? && !@__mnrb_binmode && int.nil? && !@__mnrb_wonly
        raise ArgumentError, "ASCII incompatible encoding needs binmode"
      end
      @__mnrb_ext = ext
      @__mnrb_int = int
      if bom && !@__mnrb_wonly
        found = __enc_bom
        @__mnrb_ext = found if found
      end
    end
  end
  prepend ::MNRB::IOEncodings
end

class File
  # File#initialize opens the path itself: the encodings leave its mode and options first (an
  # alias, not a prepended module: File keeps no origin, so its later defs stay lazy)
  alias __mnrb_encless_initialize initialize

  def initialize(path, *args, **kw, &blk)
    spec = nil
    if args.last.is_a?(Hash)   # File.open passes its keywords on as a Hash
      args = args.dup
      kw = args.pop.merge(kw)
    end
    if args[0].is_a?(String) && args[0].include?(":")
      args = args.dup
      args[0], spec = args[0].split(":", 2)
    end
    kw, spec, ext, int = IO.__mnrb_encoding_kw(kw, spec)
    kw.empty? ? __mnrb_encless_initialize(path, *args, &blk) : __mnrb_encless_initialize(path, *args, **kw, &blk)
    __enc_setup(spec, ext, int, true) if spec || ext || int
  end
end

class IO

  # IO.read / readlines / foreach / write with encoding options or a mode that names encodings
  module EncodingPaths
    def read(path, *args, **kw)
      return super unless __enc_opts?(kw)
      length, offset = args
      opts = kw.dup
      mode = opts.delete(:mode) || "r"
      File.open(path, mode, **opts) do |f|
        f.seek(offset) if offset
        length ? f.read(length) : f.read
      end
    end

    def readlines(path, *args, **kw)
      return super unless __enc_opts?(kw)
      open_opts, line_opts = __enc_split(kw)
      File.open(path, open_opts.delete(:mode) || "r", **open_opts) { |f| f.readlines(*args, **line_opts) }
    end

    def foreach(path, *args, **kw, &block)
      return super unless __enc_opts?(kw)
      return to_enum(:foreach, path, *args, **kw) unless block
      open_opts, line_opts = __enc_split(kw)
      File.open(path, open_opts.delete(:mode) || "r", **open_opts) { |f| f.each_line(*args, **line_opts, &block) }
      nil
    end

    def write(path, data, *args, **kw)
      return super unless __enc_opts?(kw)
      opts = kw.dup
      offset = args[0]
      mode = opts.delete(:mode) || (offset ? File::WRONLY | File::CREAT : "w")
      perm = opts.delete(:perm) || 0o666
      File.open(path, mode, perm, **opts) do |f|
        f.seek(offset) if offset
        f.write(data)
      end
    end

    private

    def __enc_opts?(kw)
      kw.key?(:encoding) || kw.key?(:external_encoding) || kw.key?(:internal_encoding) ||
        (kw[:mode].is_a?(String) && kw[:mode].include?(":"))
    end

    def __enc_split(kw)
      o = {}
      l = {}
      kw.each { |k, v| (%i[mode encoding external_encoding internal_encoding binmode].include?(k) ? o : l)[k] = v }
      [o, l]
    end
  end
  singleton_class.prepend EncodingPaths

  def self.binread(path, length = nil, offset = nil)
    File.open(path, "rb") do |f|
      f.seek(offset) if offset
      s = f.read(length)
      s ? s.force_encoding(Encoding::BINARY) : (length ? nil : "".b)
    end
  end
end
