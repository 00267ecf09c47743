# URI for what Net::HTTP needs: URI("http://host:port/path?query"), URI.parse, URI::HTTP(S)
# with scheme, userinfo, host, port (the scheme's default when absent), path, query, fragment,
# request_uri and to_s. Other schemes parse to URI::Generic. mruby has no Regexp, so the parser
# splits at the delimiters of RFC 3986's generic syntax.
module URI
  class Error < StandardError; end
  class InvalidURIError < Error; end

  class Generic
    attr_reader :scheme, :userinfo, :host, :port, :path, :query, :fragment

    DEFAULT_PORT = nil

    def self.default_port
      self::DEFAULT_PORT
    end

    def initialize(scheme, userinfo, host, port, path, query, fragment)
      @scheme = scheme
      @userinfo = userinfo
      @host = host
      @port = port || self.class.default_port
      @path = path
      @query = query
      @fragment = fragment
    end

    def default_port
      self.class.default_port
    end

    # The host without IPv6 brackets, as sockets want it.
    def hostname
      h = @host
      h && h.start_with?("[") && h.end_with?("]") ? h[1, h.size - 2] : h
    end

    def absolute?
      !@scheme.nil?
    end

    def to_s
      s = ""
      s << "#{@scheme}:" if @scheme
      if @host
        s << "//"
        s << "#{@userinfo}@" if @userinfo
        s << @host
        s << ":#{@port}" if @port && @port != default_port
      end
      s << @path.to_s
      s << "?#{@query}" if @query
      s << "##{@fragment}" if @fragment
      s
    end

    def inspect
      "#<#{self.class} #{self}>"
    end

    def ==(other)
      other.is_a?(Generic) && to_s == other.to_s
    end
  end

  class HTTP < Generic
    DEFAULT_PORT = 80

    # The path and query a request line carries.
    def request_uri
      p = @path.to_s.empty? ? "/" : @path
      @query ? "#{p}?#{@query}" : p
    end
  end

  class HTTPS < HTTP
    DEFAULT_PORT = 443
  end

  SCHEMES = { "http" => HTTP, "https" => HTTPS }

  def self.parse(str)
    raise InvalidURIError, "bad URI(is not URI?): #{str.inspect}" unless str.is_a?(String)
    raise InvalidURIError, "bad URI(is not URI?): #{str.inspect}" if str.include?(" ")
    rest = str
    fragment = query = scheme = userinfo = host = port = nil
    rest, fragment = rest.split("#", 2) if rest.include?("#")
    rest, query = rest.split("?", 2) if rest.include?("?")
    colon = rest.index(":")
    slash = rest.index("/")
    if colon && colon > 0 && (slash.nil? || colon < slash) && scheme_name?(rest[0, colon])
      scheme = rest[0, colon].downcase
      rest = rest[colon + 1, rest.size]
    end
    if rest.start_with?("//")
      rest = rest[2, rest.size]
      cut = rest.index("/") || rest.size
      authority = rest[0, cut]
      rest = rest[cut, rest.size] || ""
      userinfo, authority = authority.split("@", 2) if authority.include?("@")
      host, port = split_host_port(authority, str)
      host ||= ""                      # "http:///": an empty host, as CRuby 3.3's RFC 3986 parser
    end
    klass = SCHEMES[scheme] || Generic
    klass.new(scheme, userinfo, host, port, rest, query, fragment)
  end

  def self.scheme_name?(s)
    c = s[0]
    return false unless c && (("a".."z").include?(c.downcase))
    s.each_char.all? { |ch| ("a".."z").include?(ch.downcase) || ("0".."9").include?(ch) || "+-.".include?(ch) }
  end

  def self.split_host_port(authority, str)
    if authority.start_with?("[")
      close = authority.index("]") or raise InvalidURIError, "bad URI(is not URI?): #{str}"
      host = authority[0, close + 1]
      port = authority[close + 1, authority.size]
      port = port.start_with?(":") ? port[1, port.size] : nil
    else
      host, port = authority.split(":", 2)
    end
    if port && !port.empty?
      raise InvalidURIError, "bad URI(is not URI?): #{str}" unless port.each_char.all? { |ch| ("0".."9").include?(ch) }
      port = port.to_i
    else
      port = nil
    end
    [host, port]
  end

  # application/x-www-form-urlencoded, as URI.encode_www_form_component does it.
  def self.encode_www_form_component(str)
    out = ""
    str.to_s.each_byte do |b|
      ch = b.chr
      out << if ("a".."z").include?(ch) || ("A".."Z").include?(ch) || ("0".."9").include?(ch) || "*-._".include?(ch)
               ch
             elsif ch == " "
               "+"
             else
               "%%%02X" % b
             end
    end
    out
  end

  def self.encode_www_form(pairs)
    pairs.map { |k, v| v.nil? ? encode_www_form_component(k) : "#{encode_www_form_component(k)}=#{encode_www_form_component(v)}" }.join("&")
  end
end

module Kernel
  # URI("http://...") is URI.parse; a URI is returned as it is.
  def URI(uri)
    return uri if uri.is_a?(URI::Generic)
    raise ArgumentError, "bad argument (expected URI object or URI string)" unless uri.is_a?(String)
    URI.parse(uri)
  end
end
