# Encoding::Converter, the basic use: new(src, dst, **opts or flags), convert (whole strings:
# String#encode underneath, so nothing is kept between calls: a character split across two
# convert calls is an error here, unlike CRuby), finish, the encodings, replacement, inspect.
# primitive_convert, last_error, putback and the asciicompat helpers are not here.
class Encoding
  class Converter
    INVALID_MASK = 0xf
    INVALID_REPLACE = 2
    UNDEF_MASK = 0xf0
    UNDEF_REPLACE = 32
    UNDEF_HEX_CHARREF = 48
    UNIVERSAL_NEWLINE_DECORATOR = 256
    CRLF_NEWLINE_DECORATOR = 4096
    CR_NEWLINE_DECORATOR = 8192
    XML_TEXT_DECORATOR = 32768
    XML_ATTR_CONTENT_DECORATOR = 65536
    XML_ATTR_QUOTE_DECORATOR = 1048576

    def source_encoding = @source_encoding
    def destination_encoding = @destination_encoding

    def initialize(src, dst, flags = nil, **opts)
      begin
        @source_encoding = Encoding.find(src)
        @destination_encoding = Encoding.find(dst)
      rescue ArgumentError
        raise ConverterNotFoundError, "code converter not found (#{src} to #{dst})"
      end
      if flags.is_a?(Integer)
        opts = {}
        opts[:invalid] = :replace if flags & INVALID_MASK == INVALID_REPLACE
        opts[:undef] = :replace if flags & UNDEF_MASK == UNDEF_REPLACE
        opts[:universal_newline] = true if flags & UNIVERSAL_NEWLINE_DECORATOR != 0
        opts[:crlf_newline] = true if flags & CRLF_NEWLINE_DECORATOR != 0
        opts[:cr_newline] = true if flags & CR_NEWLINE_DECORATOR != 0
        opts[:xml] = :text if flags & XML_TEXT_DECORATOR != 0
        opts[:xml] = :attr if flags & XML_ATTR_CONTENT_DECORATOR != 0
      end
      @opts = opts
      @finished = false
    end

    def convert(str)
      raise ArgumentError, "converter already finished" if @finished
      str.encode(@destination_encoding, @source_encoding, **@opts)
    end

    def finish
      @finished = true
      "".encode(@destination_encoding)
    end

    def replacement
      r = @opts[:replace]
      return r if r
      @destination_encoding.name.start_with?("UTF-") ? "\uFFFD" : "?"
    end

    def inspect
      "#<Encoding::Converter: #{@source_encoding.name} to #{@destination_encoding.name}>"
    end
  end
end
