# URI::RFC2396_Parser (URI::Parser, URI::DEFAULT_PARSER, URI::RFC2396_PARSER), CRuby 3.3's parser
# object as libraries use it: #parse (URI.parse), #split, #escape (percent-encodes what is not
# unreserved or reserved, byte by byte; the result is US-ASCII), #unescape (each %XX a byte, the
# string's encoding kept), #regexp (PATTERN's compiled pieces). Rack 2.2 builds one at load
# (Rack::Utils::RFC2396_PARSER) and MockRequest parses with URI::Parser.new. Patterns are
# Regexp.new of Strings: a Regexp literal in lib/ would need a symbol per state.
module URI
  class RFC2396_Parser
    def initialize(opts = {})
      @pattern = RFC2396_REGEXP::PATTERN
      @unsafe = Regexp.new("[^#{@pattern::UNRESERVED}#{@pattern::RESERVED}]")
      @escaped = Regexp.new(@pattern::ESCAPED)
    end

    attr_reader :pattern

    def parse(uri) = URI.parse(uri)

    # [scheme, userinfo, host, port, registry, path, opaque, query, fragment], as CRuby's
    def split(uri)
      u = parse(uri)
      port = u.port && u.port != u.default_port ? u.port.to_s : nil   # CRuby: the port as written
      [u.scheme, u.userinfo, u.host, port, nil, u.path, nil, u.query, u.fragment]
    end

    def escape(str, unsafe = @unsafe)
      unsafe = Regexp.new("[#{Regexp.quote(unsafe)}]") if unsafe.is_a?(String)
      str.b.gsub(unsafe) { |m| m.unpack("C*").map { |b| format("%%%02X", b) }.join }.force_encoding(Encoding::US_ASCII)
    end

    def unescape(str, escaped = @escaped)
      str.b.gsub(escaped) { |m| m[1, 2].hex.chr }.force_encoding(str.encoding)
    end

    def regexp
      {
        SCHEME: Regexp.new("\\A#{@pattern::SCHEME}\\z"),
        USERINFO: Regexp.new("\\A#{@pattern::USERINFO}\\z"),
        HOST: Regexp.new("\\A#{@pattern::HOST}\\z"),
        ABS_PATH: Regexp.new("\\A#{@pattern::ABS_PATH}\\z"),
        QUERY: Regexp.new("\\A#{@pattern::QUERY}\\z"),
        FRAGMENT: Regexp.new("\\A#{@pattern::FRAGMENT}\\z"),
        ESCAPED: @escaped,
        UNSAFE: @unsafe,
      }
    end

    def inspect = "#<#{self.class}>"
  end

  Parser = RFC2396_Parser
  RFC2396_PARSER = RFC2396_Parser.new
  DEFAULT_PARSER = RFC2396_PARSER
end
