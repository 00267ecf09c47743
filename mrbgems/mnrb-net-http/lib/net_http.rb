# Net::HTTP: an HTTP/1.1 client with CRuby's API for plain http.
#
#   Net::HTTP.get_response("127.0.0.1", "/", 8080)      Net::HTTP.get(URI("http://127.0.0.1:8080/"))
#   Net::HTTP.start("127.0.0.1", 8080) { |http| http.get("/a"); http.get("/b") }   # one connection
#
# Inside `start`, requests reuse one TCP connection (keep-alive) until the server closes it; a
# request on a connection the server has meanwhile closed is retried once on a new one, as CRuby
# does for idempotent methods. A request made without `start` opens a connection for itself and
# asks the server to close it. open_timeout and read_timeout (60 s, as CRuby) raise
# Net::OpenTimeout and Net::ReadTimeout through Timeout. https (use_ssl = true, an https URI) wraps
# the connection in an OpenSSL::SSL::SSLSocket; "openssl" is required then, not before, and the
# context gets CRuby's defaults (SSLContext#set_params: the peer verified against the system's CAs,
# its certificate checked for the host name) with the attributes set on the Net::HTTP.
module Net
  class HTTP
    HTTPVersion = "1.1"
    IDEMPOTENT = %w(GET HEAD PUT DELETE OPTIONS TRACE)

    class << self
      def get_response(uri_or_host, path = nil, port = nil, &block)
        if path
          new(uri_or_host, port).request_once(Get.new(path), &block)
        else
          uri = URI(uri_or_host)
          http = new(uri.hostname, uri.port).check_scheme(uri)
          http.use_ssl = uri.scheme == "https"
          http.request_once(Get.new(uri), &block)
        end
      end

      def get(uri_or_host, path = nil, port = nil)
        get_response(uri_or_host, path, port).body
      end

      def post(uri, data, header = nil)
        uri = URI(uri)
        start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") { |http| http.post(uri.request_uri, data, header) }
      end

      # start(address, port = nil, p_addr, p_port, p_user, p_pass, opt = {}): opt sets attributes
      # (use_ssl: true, verify_mode:, ca_file:...); the proxy arguments are taken and not used
      def start(address, *args, &block)
        opt = args.last.is_a?(Hash) ? args.pop : {}
        port = args[0]
        port ||= opt[:use_ssl] ? https_default_port : http_default_port
        http = new(address, port)
        opt.each { |name, value| http.__send__(:"#{name}=", value) }
        http.start(&block)
      end

      def default_port
        80
      end
      alias http_default_port default_port

      def https_default_port
        443
      end
    end

    SSL_ATTRIBUTES = %i(ca_file ca_path cert cert_store ciphers key ssl_timeout ssl_version
                        min_version max_version verify_callback verify_depth verify_mode verify_hostname)
    attr_accessor(*SSL_ATTRIBUTES)

    attr_reader :address, :port
    attr_accessor :open_timeout, :read_timeout, :write_timeout, :keep_alive_timeout

    def initialize(address, port = nil)
      @address = address
      @port = port || HTTP.default_port
      @open_timeout = 60
      @read_timeout = 60
      @write_timeout = 60
      @keep_alive_timeout = 2
      @socket = nil
      @started = false
    end

    def inspect
      "#<#{self.class} #{@address}:#{@port} open=#{started?}>"
    end

    def use_ssl?
      @use_ssl || false
    end

    def use_ssl=(flag)
      raise IOError, "use_ssl value changed, but session already started" if @started && use_ssl? != !!flag
      @use_ssl = !!flag
    end

    # the certificate the server showed (nil before start, or without TLS)
    def peer_cert
      @socket.respond_to?(:peer_cert) ? @socket.peer_cert : nil
    end

    def started?
      @started
    end
    alias active? started?

    # Opens the connection. With a block: yields self, closes the connection after it and returns
    # the block's value.
    def start
      raise IOError, "HTTP session already opened" if @started
      connect
      @started = true
      return self unless block_given?
      begin
        yield self
      ensure
        finish if @started
      end
    end

    def finish
      raise IOError, "HTTP session not yet started" unless @started
      @started = false
      disconnect
      nil
    end

    def get(path, initheader = nil, &block)
      request(Get.new(path, initheader), &block)
    end

    def head(path, initheader = nil)
      request(Head.new(path, initheader))
    end

    def post(path, data, initheader = nil, &block)
      request(Post.new(path, initheader), data, &block)
    end

    def put(path, data, initheader = nil)
      request(Put.new(path, initheader), data)
    end

    def delete(path, initheader = nil)
      request(Delete.new(path, initheader))
    end

    # Yields the response (if a block is given) and returns it.
    def request_get(path, initheader = nil, &block)
      request(Get.new(path, initheader), &block)
    end

    def request_head(path, initheader = nil, &block)
      request(Head.new(path, initheader), &block)
    end

    def request_post(path, data, initheader = nil, &block)
      request(Post.new(path, initheader), data, &block)
    end

    # Sends `req` (with `body`), reads the whole response and returns it; yields it first if a
    # block is given. Not started: a connection just for this request.
    def request(req, body = nil, &block)
      return request_once(req, body, &block) unless @started
      res = exchange(req, body, IDEMPOTENT.include?(req.method))
      yield res if block
      res
    end

    # One request on a connection of its own, which the server is asked to close.
    def request_once(req, body = nil, &block)
      req["connection"] ||= "close"
      start { request(req, body, &block) }
    end

    def check_scheme(uri)
      self
    end

    private

    def connect
      @socket = with_timeout(@open_timeout, OpenTimeout, "execution expired") do
        TCPSocket.new(@address, @port)
      end
      connect_ssl if use_ssl?
      @reused = false
    end

    # Wraps @socket in TLS as CRuby does: set_params with the attributes given, SNI for a host name
    # (not for an IP address), the handshake within open_timeout, then the host name check.
    def connect_ssl
      require "openssl"
      params = {}
      SSL_ATTRIBUTES.each do |name|
        value = instance_variable_get(:"@#{name}")
        params[name] = value unless value.nil?
      end
      ctx = OpenSSL::SSL::SSLContext.new
      ctx.set_params(params)
      s = OpenSSL::SSL::SSLSocket.new(@socket, ctx)
      s.sync_close = true
      s.hostname = @address unless @address.include?(":") || @address.delete("0-9.").empty?
      begin
        with_timeout(@open_timeout, OpenTimeout, "execution expired") { s.connect }
        if ctx.verify_mode != OpenSSL::SSL::VERIFY_NONE && ctx.verify_hostname
          s.post_connection_check(@address)
        end
      rescue Exception
        s.close
        raise
      end
      @socket = s
    end

    def disconnect
      s = @socket
      @socket = nil
      s.close if s && !s.closed?
    end

    # Writes the request and reads the response. A kept-alive connection the server has closed
    # in the meantime shows as EOF (or a reset) before any byte of the response: retried once.
    def exchange(req, body, retriable)
      connect if @socket.nil?
      reused = @reused
      @got_status = false
      begin
        MNRB::HTTPWire.write(@socket, req.wire(host_header, body))
        res = with_timeout(@read_timeout, ReadTimeout, "Net::ReadTimeout") { read_response(req) }
      rescue Timeout::Error => e
        disconnect
        raise e
      rescue StandardError => e      # EOFError, IOError, a reset (SystemCallError)
        disconnect
        raise e unless reused && retriable && !@got_status
        connect
        return exchange(req, body, false)
      end
      @reused = true
      disconnect if res.connection_close? || req.connection_close? || @to_eof ||
                    (res.http_version == "1.0" && !res.connection_keep_alive?)
      res
    end

    def read_response(req)
      @got_status = false
      @to_eof = false
      loop do
        line = MNRB::HTTPWire.read_line(@socket) or raise EOFError, "end of file reached"
        @got_status = true
        res = parse_status(line)
        MNRB::HTTPWire.read_fields(@socket, res)
        next if res.is_a?(HTTPContinue)
        if res.body_permitted_for?(req.method)
          res.body, @to_eof = MNRB::HTTPWire.read_body(@socket, res)
        end
        return res
      end
    end

    def parse_status(line)
      version, code, message = line.split(" ", 3)
      unless version && version.start_with?("HTTP/") && code && code.size == 3
        raise HTTPBadResponse, "wrong status line: #{line.inspect}"
      end
      HTTPResponse.response_class(code).new(version[5, version.size], code, message || "")
    end

    def host_header
      @port == (use_ssl? ? HTTP.https_default_port : HTTP.default_port) ? @address : "#{@address}:#{@port}"
    end

    def with_timeout(sec, klass, message, &block)
      sec ? Timeout.timeout(sec, klass, message, &block) : yield
    end
  end
end
