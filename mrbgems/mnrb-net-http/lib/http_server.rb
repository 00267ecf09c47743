# MNRB::HTTPServer: a small HTTP/1.1 server for loopback tests and benchmarks, one thread per
# connection (the model mnrb's M:N threads make cheap).
#
#   server = MNRB::HTTPServer.new(port: 0) { |req| [200, {"Content-Type" => "text/plain"}, "hi"] }
#   server.start                      # accepts in a thread of its own; server.port is the port
#   Net::HTTP.get("127.0.0.1", "/", server.port)
#   server.shutdown
#
# The handler gets an MNRB::HTTPServer::Request and returns [status, headers, body] (Rack's
# triple): body is a String, an Array of Strings (sent with Content-Length) or anything else that
# responds to #each (sent chunked). Connections are kept alive as HTTP/1.1 says (unless the client
# sends "Connection: close"; HTTP/1.0 only with "Connection: keep-alive"). A handler that raises
# gets a 500 and its connection closed. Plain Ruby on TCPServer: it runs on CRuby too.
module MNRB
  class HTTPServer
    STATUS_MESSAGES = {
      100 => "Continue", 200 => "OK", 201 => "Created", 202 => "Accepted", 204 => "No Content",
      206 => "Partial Content", 301 => "Moved Permanently", 302 => "Found", 303 => "See Other",
      304 => "Not Modified", 307 => "Temporary Redirect", 308 => "Permanent Redirect",
      400 => "Bad Request", 401 => "Unauthorized", 403 => "Forbidden", 404 => "Not Found",
      405 => "Method Not Allowed", 408 => "Request Timeout", 409 => "Conflict", 410 => "Gone",
      411 => "Length Required", 413 => "Payload Too Large", 422 => "Unprocessable Entity",
      429 => "Too Many Requests", 500 => "Internal Server Error", 501 => "Not Implemented",
      502 => "Bad Gateway", 503 => "Service Unavailable", 504 => "Gateway Timeout",
    }

    # A request as the handler sees it. Header names are lower case.
    class Request
      include Net::HTTPHeader

      attr_reader :request_method, :path, :query, :http_version
      attr_accessor :body

      def initialize(request_method, target, http_version)
        @request_method = request_method
        @path, @query = target.split("?", 2)
        @http_version = http_version
        @body = ""
        initialize_http_header(nil)
      end

      def headers
        h = {}
        each_header { |k, v| h[k] = v }
        h
      end

      def keep_alive?
        return false if connection_close?
        @http_version == "1.1" || connection_keep_alive?
      end
    end

    class BadRequest < StandardError; end

    attr_reader :host, :port

    def initialize(host: "127.0.0.1", port: 0, &handler)
      raise ArgumentError, "MNRB::HTTPServer.new needs a handler block" unless handler
      @handler = handler
      @server = TCPServer.new(host, port)
      @host = host
      @port = @server.addr[1]
      @lock = Mutex.new
      @connections = {}   # guarded by @lock: serving Thread => its socket
      @acceptor = nil
      @stopping = false
    end

    def url(path = "/")
      "http://#{@host}:#{@port}#{path}"
    end

    # Accepts connections in a new thread; returns self.
    def start
      @acceptor = Thread.new { run }
      self
    end

    # Accepts connections in the calling thread until #shutdown.
    def run
      until @stopping
        begin
          sock = @server.accept
        rescue StandardError => e    # IOError once shutdown closes the listening socket
          break if @stopping
          raise e
        end
        Thread.new(sock) { |s| serve(s) }
      end
      nil
    end

    # Stops accepting, closes every connection and waits for their threads.
    def shutdown
      @stopping = true
      @server.close unless @server.closed?
      serving = @lock.synchronize { @connections.dup }
      serving.each_value { |s| s.close unless s.closed? }
      serving.each_key do |t|
        next if t == Thread.current
        t.kill unless t.join(1)
      end
      @acceptor.join(1) if @acceptor && @acceptor != Thread.current
      nil
    end
    alias stop shutdown

    def connections
      @lock.synchronize { @connections.size }
    end

    private

    def serve(sock)
      @lock.synchronize { @connections[Thread.current] = sock }
      loop do
        req = read_request(sock) or break
        status, headers, body = respond_to(req)
        keep = req.keep_alive? && status != 500 && !@stopping
        write_response(sock, req, status, headers, body, keep)
        break unless keep
      end
    rescue BadRequest => e
      write_response(sock, nil, 400, { "Content-Type" => "text/plain" }, "#{e.message}\n", false) rescue nil
    rescue StandardError
      nil   # the peer went away or shutdown closed the socket
    ensure
      @lock.synchronize { @connections.delete(Thread.current) }
      sock.close unless sock.closed?
    end

    def read_request(sock)
      line = ""
      line = HTTPWire.read_line(sock) while line && line.empty?   # RFC 9112 2.2: skip leading CRLFs
      return nil if line.nil?
      method, target, version = line.split(" ", 3)
      unless method && target && version && version.start_with?("HTTP/")
        raise BadRequest, "bad request line: #{line.inspect}"
      end
      req = Request.new(method, target, version[5, version.size])
      HTTPWire.read_fields(sock, req)
      req.body = HTTPWire.read_body(sock, req)[0] if req.chunked? || req.content_length
      req
    rescue Net::HTTPBadResponse, Net::HTTPHeaderSyntaxError => e
      raise BadRequest, e.message
    end

    def respond_to(req)
      status, headers, body = @handler.call(req)
      [status.to_i, headers || {}, body || ""]
    rescue StandardError => e
      warn "MNRB::HTTPServer: the handler raised #{e.class}: #{e.message}"
      [500, { "Content-Type" => "text/plain" }, "Internal Server Error\n"]
    end

    def write_response(sock, req, status, headers, body, keep)
      head = "HTTP/1.1 #{status} #{STATUS_MESSAGES[status] || 'Unknown'}\r\n"
      names = {}
      headers.each do |k, v|
        names[k.to_s.downcase] = true
        head << "#{k}: #{v}\r\n"
      end
      head << "Connection: #{keep ? 'keep-alive' : 'close'}\r\n" unless names["connection"]
      no_body = status < 200 || status == 204 || status == 304
      send_body = !no_body && !(req && req.request_method == "HEAD")
      chunks = nil
      unless no_body
        if body.is_a?(String) || body.is_a?(Array)
          body = body.join if body.is_a?(Array)
          head << "Content-Length: #{body.bytesize}\r\n" unless names["content-length"]
        elsif req.nil? || req.http_version == "1.1"
          chunks = body
          head << "Transfer-Encoding: chunked\r\n" unless names["transfer-encoding"]
        else
          body = body.to_a.join
          head << "Content-Length: #{body.bytesize}\r\n"
        end
      end
      head << "\r\n"
      if chunks
        HTTPWire.write(sock, head)
        HTTPWire.write_chunked(sock, chunks) if send_body
      else
        HTTPWire.write(sock, send_body ? head + body : head)
      end
    end
  end
end
