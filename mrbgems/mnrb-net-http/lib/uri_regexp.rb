# URI::REGEXP (URI::RFC2396_REGEXP): PATTERN's Strings for RFC 2396's grammar (with RFC 2732's IPv6
# references), which libraries build their own patterns from (WEBrick reads a Host header with
# PATTERN::HOST). Strings only: a Regexp literal in lib/ would need a symbol per state
# (mnrb-require's feature_build.rb).
module URI
  module RFC2396_REGEXP
    module PATTERN
      ALPHA = "a-zA-Z"
      ALNUM = "#{ALPHA}\\d"
      HEX = "a-fA-F\\d"
      ESCAPED = "%[#{HEX}]{2}"
      UNRESERVED = "\\-_.!~*'()#{ALNUM}"
      RESERVED = ";/?:@&=+$,\\[\\]"
      DOMLABEL = "(?:[#{ALNUM}](?:[-#{ALNUM}]*[#{ALNUM}])?)"
      TOPLABEL = "(?:[#{ALPHA}](?:[-#{ALNUM}]*[#{ALNUM}])?)"
      HOSTNAME = "(?:#{DOMLABEL}\\.)*#{TOPLABEL}\\.?"
      IPV4ADDR = "\\d+\\.\\d+\\.\\d+\\.\\d+"
      HEX4 = "[#{HEX}]{1,4}"
      LASTPART = "(?:#{HEX4}|#{IPV4ADDR})"
      HEXSEQ1 = "(?:#{HEX4}:)*#{HEX4}"
      HEXSEQ2 = "(?:#{HEX4}:)*#{LASTPART}"
      IPV6ADDR = "(?:#{HEXSEQ2}|(?:#{HEXSEQ1})?::(?:#{HEXSEQ2})?)"
      IPV6REF = "\\[#{IPV6ADDR}\\]"
      HOST = "(?:#{HOSTNAME}|#{IPV4ADDR}|#{IPV6REF})"
      PORT = "\\d*"
      HOSTPORT = "#{HOST}(?::#{PORT})?"
      USERINFO = "(?:[#{UNRESERVED};:&=+$,]|#{ESCAPED})*"
      SCHEME = "[#{ALPHA}][\\-+.#{ALNUM}]*"
      PCHAR = "(?:[#{UNRESERVED}:@&=+$,]|#{ESCAPED})"
      PARAM = "#{PCHAR}*"
      SEGMENT = "#{PCHAR}*(?:;#{PARAM})*"
      PATH_SEGMENTS = "#{SEGMENT}(?:/#{SEGMENT})*"
      ABS_PATH = "/#{PATH_SEGMENTS}"
      URIC = "(?:[#{UNRESERVED}#{RESERVED}]|#{ESCAPED})"
      QUERY = "#{URIC}*"
      FRAGMENT = "#{URIC}*"
    end
  end
  REGEXP = RFC2396_REGEXP
end
