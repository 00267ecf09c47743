# The encodings of what IO reads, as CRuby gives them: text reads (read with no length, gets,
# each_line, getc) are UTF-8 (Encoding.default_external), byte reads (read(length), readpartial,
# sysread, read_nonblock) and every read of a binmode IO ("rb", #binmode) are ASCII-8BIT.
# A buffer passed to read keeps its own encoding, as CRuby 3.1 does. IO.binread is here too.
class IO
  module BinaryReads
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

    # binmode and "b" in an open mode, remembered here (mnrb-io keeps no such flag)
    def initialize(*args, **kw, &blk)
      kw.empty? ? super(*args, &blk) : super(*args, **kw, &blk)
      mode = args[1].is_a?(String) ? args[1] : kw[:mode]
      @__mnrb_binmode = true if (mode.is_a?(String) && mode.include?("b")) || kw[:binmode]
    end

    def binmode   # reads become ASCII-8BIT; mnrb does no newline conversion to switch off
      @__mnrb_binmode = true
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
  prepend BinaryReads

  def self.binread(path, length = nil, offset = nil)
    File.open(path, "rb") do |f|
      f.seek(offset) if offset
      s = f.read(length)
      s ? s.force_encoding(Encoding::BINARY) : (length ? nil : "".b)
    end
  end
end
