# Net::HTTPGenericRequest and Net::HTTP::Get/Head/Post/Put/Delete: a method, a path and header
# fields, written as an HTTP/1.1 request.
module Net
  class HTTPGenericRequest
    include HTTPHeader

    attr_reader :method, :path
    attr_accessor :body

    def initialize(method, request_has_body, response_has_body, path, initheader = nil)
      path = path.request_uri if path.respond_to?(:request_uri)
      raise ArgumentError, "no HTTP request path given" if path.nil?
      raise ArgumentError, "HTTP request path is empty" if path.empty?
      @method = method
      @request_has_body = request_has_body
      @response_has_body = response_has_body
      @path = path
      @body = nil
      initialize_http_header(initheader)
      self["accept"] ||= "*/*"
      self["user-agent"] ||= "Ruby"
    end

    def request_body_permitted?
      @request_has_body
    end

    def response_body_permitted?
      @response_has_body
    end

    def inspect
      "#<#{self.class} #{@method}>"
    end

    # The request's bytes, with Host and Content-Length filled in.
    def wire(host_header, body)
      body ||= @body
      self["host"] ||= host_header
      self["content-length"] = body.bytesize if body
      head = "#{@method} #{@path} HTTP/1.1\r\n"
      each_header { |k, v| head << "#{capitalize(k)}: #{v}\r\n" }
      head << "\r\n"
      body ? head + body : head
    end

    private

    def capitalize(name)
      name.split("-").map(&:capitalize).join("-")
    end
  end

  class HTTPRequest < HTTPGenericRequest
    def initialize(path, initheader = nil)
      super(self.class::METHOD, self.class::REQUEST_HAS_BODY, self.class::RESPONSE_HAS_BODY, path, initheader)
    end
  end

  class HTTP
    class Get < HTTPRequest
      METHOD = "GET"
      REQUEST_HAS_BODY = false
      RESPONSE_HAS_BODY = true
    end

    class Head < HTTPRequest
      METHOD = "HEAD"
      REQUEST_HAS_BODY = false
      RESPONSE_HAS_BODY = false
    end

    class Post < HTTPRequest
      METHOD = "POST"
      REQUEST_HAS_BODY = true
      RESPONSE_HAS_BODY = true
    end

    class Put < HTTPRequest
      METHOD = "PUT"
      REQUEST_HAS_BODY = true
      RESPONSE_HAS_BODY = true
    end

    class Delete < HTTPRequest
      METHOD = "DELETE"
      REQUEST_HAS_BODY = false
      RESPONSE_HAS_BODY = true
    end
  end
end
