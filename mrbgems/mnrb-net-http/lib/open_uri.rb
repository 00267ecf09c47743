# URI.open for http URLs, as CRuby's open-uri: the body in a StringIO that also answers status,
# base_uri, meta and content_type; redirects are followed (up to 10); a status other than 2xx
# raises OpenURI::HTTPError ("404 Not Found") carrying that StringIO. Anything that is not an
# http URL is opened as a file. (Since Ruby 3.0 open-uri no longer overrides Kernel#open.)
module OpenURI
  class HTTPError < StandardError
    attr_reader :io

    def initialize(message, io)
      super(message)
      @io = io
    end
  end

  class HTTPRedirect < HTTPError
    attr_reader :uri

    def initialize(message, io, uri)
      super(message, io)
      @uri = uri
    end
  end

  module Meta
    attr_accessor :status, :base_uri, :meta

    def content_type
      v = meta["content-type"]
      v ? v.split(";", 2)[0].strip.downcase : "application/octet-stream"
    end

    def charset
      v = meta["content-type"] or return nil
      param = v.split(";").map(&:strip).find { |p| p.downcase.start_with?("charset=") }
      param && param.split("=", 2)[1].downcase
    end
  end

  MAX_REDIRECTS = 10

  def self.open_http(uri)
    seen = 0
    loop do
      res = Net::HTTP.get_response(uri)
      if res.is_a?(Net::HTTPRedirection) && res["location"]
        seen += 1
        raise HTTPError.new("too many redirects", meta_io(res, uri)) if seen > MAX_REDIRECTS
        uri = redirect_target(uri, res["location"])
        next
      end
      io = meta_io(res, uri)
      raise HTTPError.new("#{res.code} #{res.message}".strip, io) unless res.is_a?(Net::HTTPSuccess)
      return io
    end
  end

  def self.meta_io(res, uri)
    io = StringIO.new(res.body || "")
    io.extend(Meta)
    io.status = [res.code, res.message]
    io.base_uri = uri
    io.meta = {}
    res.each_header { |k, v| io.meta[k] = v }
    io
  end

  def self.redirect_target(base, location)
    return URI.parse(location) if location.include?("://")
    path = location.start_with?("/") ? location : File.join(File.dirname(base.path.to_s.empty? ? "/" : base.path), location)
    URI.parse("#{base.scheme}://#{base.host}#{base.port == base.default_port ? '' : ":#{base.port}"}#{path}")
  end
end

module URI
  def self.open(name, *rest, &block)
    uri = name.is_a?(URI::Generic) ? name : (name.is_a?(String) && name.include?("://") ? URI.parse(name) : nil)
    return File.open(name, *rest, &block) unless uri.is_a?(URI::HTTP)
    io = OpenURI.open_http(uri)
    return io unless block
    yield io
  end
end
