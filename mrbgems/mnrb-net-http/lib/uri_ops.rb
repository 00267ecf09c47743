# URI beyond parsing (the rest of the "uri" feature, after uri.rb): reference resolution (URI.join,
# Generic#merge and #+ as RFC 3986 section 5.2 with its remove_dot_segments), the components'
# setters, user and password, Generic.build / HTTP.build, HTTP#origin, and the form codecs CRuby
# programs call (decode_www_form(_component), encode_www_form with Array values,
# encode_uri_component / decode_uri_component). Semantics and messages are CRuby's uri 0.13.
module URI
  class BadURIError < Error; end

  class Generic
    attr_writer :scheme, :userinfo, :host, :path, :query, :fragment

    def port=(v)
      @port = v.nil? ? nil : v.to_i
    end

    def user = @userinfo && @userinfo.split(":", 2)[0]
    def password = @userinfo && @userinfo.split(":", 2)[1]

    def user=(v)
      @userinfo = password ? "#{v}:#{password}" : v
    end

    def password=(v)
      raise InvalidURIError, "password component depends user component" unless user
      @userinfo = "#{user}:#{v}"
    end

    def relative? = !absolute?
    def hierarchical? = !@path.nil?
    def eql?(other) = self.class == other.class && to_s == other.to_s
    def hash = to_s.hash

    # Generic.build(host: "h", path: "/p") or build([userinfo, host, port, path, query, fragment])
    # (HTTP.build's array omits nothing either); the scheme is the class's.
    def self.build(args)
      h = if args.is_a?(Array)
            %i[userinfo host port path query fragment].zip(args).to_h
          else
            args.to_h
          end
      scheme = self == Generic ? h[:scheme] : URI::SCHEMES.key(self)
      new(scheme, h[:userinfo], h[:host], h[:port], h[:path] || "", h[:query], h[:fragment])
    end

    # The reference oth resolved against this (absolute) URI: RFC 3986 5.2.2.
    def merge(oth)
      oth = URI.parse(oth) if oth.is_a?(String)
      raise ArgumentError, "bad argument (expected URI object or URI string)" unless oth.is_a?(Generic)
      raise BadURIError, "both URI are relative" if relative? && oth.relative?
      raise BadURIError, "base URI is relative: #{self}" if relative?
      return URI.__copy(self) if oth.to_s.empty?    # CRuby keeps the base whole, fragment too
      return URI.__copy(oth, path: URI.__remove_dot_segments(oth.path.to_s)) if oth.absolute?
      if oth.host
        return URI.__copy(oth, scheme: @scheme, path: URI.__remove_dot_segments(oth.path.to_s))
      end
      opath = oth.path.to_s
      if opath.empty?
        return URI.__copy(self, query: oth.query || @query, fragment: oth.fragment)
      end
      path = if opath.start_with?("/")
               opath
             elsif @host && @path.to_s.empty?
               "/" + opath
             else
               base = @path.to_s
               (base.include?("/") ? base[0..base.rindex("/")] : "") + opath
             end
      URI.__copy(self, path: URI.__remove_dot_segments(path), query: oth.query, fragment: oth.fragment)
    end
    alias + merge

    # scheme and host in lower case, an empty HTTP path as "/"
    def normalize
      u = URI.__copy(self, scheme: @scheme&.downcase, host: @host&.downcase)
      u.path = "/" if u.is_a?(HTTP) && u.path.to_s.empty?
      u
    end
  end

  class HTTP
    # "http://host" with the port when it is not the scheme's default (CRuby 3.3's uri 0.13)
    def origin
      port = @port && @port != default_port ? ":#{@port}" : ""
      "#{@scheme}://#{@host}#{port}"
    end

    def authority
      @port && @port != default_port ? "#{@host}:#{@port}" : @host
    end
  end

  def self.__copy(u, **changes)
    parts = { scheme: u.scheme, userinfo: u.userinfo, host: u.host, port: u.port, path: u.path,
              query: u.query, fragment: u.fragment }.merge(changes)
    klass = SCHEMES[parts[:scheme]&.downcase] || Generic
    klass.new(*parts.values_at(:scheme, :userinfo, :host, :port, :path, :query, :fragment))
  end

  # RFC 3986 5.2.4: "." and ".." segments removed ("/a/b/../c/./d" -> "/a/c/d").
  def self.__remove_dot_segments(path)
    input = path.dup
    out = []
    until input.empty?
      if input.start_with?("../") then input = input[3..]
      elsif input.start_with?("./") then input = input[2..]
      elsif input.start_with?("/./") then input = input[2..]
      elsif input == "/." then input = "/"
      elsif input.start_with?("/../") || input == "/.."
        input = input == "/.." ? "/" : input[3..]
        out.pop
      elsif input == "." || input == ".." then input = ""
      else
        cut = input.index("/", input.start_with?("/") ? 1 : 0) || input.size
        out << input[0, cut]
        input = input[cut..]
      end
    end
    out.join
  end

  def self.join(*strs)
    raise ArgumentError, "wrong number of arguments (given 0, expected 1+)" if strs.empty?
    strs.map { |s| s.is_a?(Generic) ? s : URI.parse(s) }.inject { |a, b| a.merge(b) }
  end

  # "a=1&b=x+y" -> [["a", "1"], ["b", "x y"]]; a part without "=" has the value "", an empty part
  # between separators is ["", ""]
  def self.decode_www_form(str, enc = Encoding::UTF_8, separator: "&", use__charset_: false, isindex: false)
    raise ArgumentError, "the input of #{name}.#{__method__} must be ASCII only string" unless str.ascii_only?
    parts = str.split(separator, -1)
    parts.pop if parts.last == ""                   # "a=1&" has one pair, "a&&b" three
    parts.map do |part|
      k, v = part.split("=", 2)
      [decode_www_form_component(k, enc), decode_www_form_component(v || "", enc)]
    end
  end

  def self.decode_www_form_component(str, enc = Encoding::UTF_8) = __percent_decode(str, enc, true)
  def self.decode_uri_component(str, enc = Encoding::UTF_8) = __percent_decode(str, enc, false)

  # encode_www_form_component with %20 for a space (CRuby 3.2)
  def self.encode_uri_component(str, enc = nil) = encode_www_form_component(str).gsub("+", "%20")

  # (Regexp.new: a literal's source would be a symbol outside the pre-interned table, lib/'s rule)
  PERCENT_BAD = Regexp.new('%(?!\h\h)')
  PERCENT_HEX = Regexp.new('%\h\h')
  private_constant :PERCENT_BAD, :PERCENT_HEX

  def self.__percent_decode(str, enc, plus)
    s = str.to_s
    raise ArgumentError, "invalid %-encoding (#{s})" if s.match?(PERCENT_BAD)
    out = s.b.gsub(PERCENT_HEX) { |m| m[1, 2].hex.chr }
    out = out.tr("+", " ") if plus
    out.force_encoding(enc)
  end

  # pairs' Array values become one pair each ({a: [1, 2]} -> "a=1&a=2"); a nil value is the key alone
  def self.encode_www_form(pairs, enc = nil)
    pairs.flat_map do |k, v|
      key = encode_www_form_component(k)
      if v.nil? then [key]
      elsif v.is_a?(Array) then v.map { |x| x.nil? ? key : "#{key}=#{encode_www_form_component(x)}" }
      else ["#{key}=#{encode_www_form_component(v)}"]
      end
    end.join("&")
  end
end
