# OpenSSL::SSL: the Ruby half of SSLContext and SSLSocket (src/ssl.c is the C half).
#
# A context keeps CRuby's attributes as instance variables and gives them to its SSL_CTX once, in
# `setup`, when the first socket uses it (then it is frozen, as CRuby's). SSLSocket reads through
# a buffer (CRuby's OpenSSL::Buffering: gets, read, readpartial, each_line...) over sysread; writes
# go straight to syswrite (sync is always true). sysread/syswrite park the thread without the GVL
# while the socket is not ready (ssl.c).
module OpenSSL
  module SSL
    VERSIONS = { SSL3: SSL3_VERSION, TLS1: TLS1_VERSION, TLS1_1: TLS1_1_VERSION,
                 TLS1_2: TLS1_2_VERSION, TLS1_3: TLS1_3_VERSION }

    def self.__version(v)
      return 0 if v.nil?
      return v if v.is_a?(Integer)
      name = v.to_s
      name = "TLS" + name[4, name.size] if name.start_with?("TLSv")
      VERSIONS.fetch(name.sub(".", "_").to_sym) { raise ArgumentError, "unrecognized version #{v.inspect}" }
    end

    def self.verify_certificate_identity(cert, hostname) = cert.__check_host(hostname)

    class SSLContext
      DEFAULT_PARAMS = {
        min_version: TLS1_VERSION, verify_mode: VERIFY_PEER, verify_hostname: true,
        options: OP_ALL | OP_NO_COMPRESSION | OP_NO_SSLv3 & ~OP_LEGACY_SERVER_CONNECT,
      }
      # set_default_paths, done when it is first verified against (src/x509.c): not at every
      # require, nor at every Ractor.new after one
      DEFAULT_CERT_STORE = X509::Store.new
      DEFAULT_CERT_STORE.__default_paths_at_first_use

      attr_accessor :verify_mode, :verify_hostname, :ca_file, :ca_path, :cert_store, :cert, :key,
                    :timeout, :ssl_timeout, :verify_depth, :verify_callback, :alpn_protocols,
                    :alpn_select_cb, :servername_cb, :extra_chain_cert, :client_ca, :session_cache_mode,
                    :renegotiation_cb, :ciphersuites

      def initialize(version = nil)
        __init
        @verify_mode = VERIFY_NONE
        @verify_hostname = false
        @min_version = @max_version = nil
        self.ssl_version = version if version
      end

      def set_params(params = {})
        params = DEFAULT_PARAMS.merge(params)
        self.options = params.delete(:options)
        params.each { |name, value| __send__(:"#{name}=", value) }
        if verify_mode != VERIFY_NONE && !ca_file && !ca_path && !cert_store
          self.cert_store = DEFAULT_CERT_STORE
        end
        params
      end

      def options=(v)
        self.__options = v
      end

      def ciphers=(v)
        self.__ciphers = v.is_a?(Array) ? v.map { |c| c.is_a?(Array) ? c[0] : c }.join(":") : v.to_s
      end

      def min_version=(v)
        @min_version = SSL.__version(v)
      end

      def max_version=(v)
        @max_version = SSL.__version(v)
      end

      def ssl_version=(meth)
        v = SSL.__version(meth.to_s.delete_suffix("_client").delete_suffix("_server"))
        @min_version = @max_version = v
      end

      # Gives the attributes to the SSL_CTX and freezes the context; later calls do nothing
      def setup
        return true if frozen?
        __verify(verify_mode || VERIFY_NONE)
        __ca(ca_file, ca_path) if ca_file || ca_path
        __store(cert_store) if cert_store
        __cert_key(cert, key) if cert && key
        __versions(@min_version || 0, @max_version || 0)
        if alpn_protocols
          __alpn(alpn_protocols.map { |p| p.bytesize.chr + p }.join)
        end
        freeze
        true
      end
    end

    # CRuby's OpenSSL::Buffering, the part Ruby programs use: reads from a buffer filled by
    # sysread, writes through syswrite
    module Buffering
      include Enumerable
      BLOCK_SIZE = 16384

      attr_accessor :sync

      def __rbuf
        @rbuffer ||= "".b
      end

      # false at EOF
      def __fill
        data = __read(BLOCK_SIZE, false)
        return false unless data
        __rbuf << data.force_encoding(Encoding::BINARY)
        true
      end

      def __take(n)
        buf = __rbuf
        s = buf.byteslice(0, n)
        @rbuffer = buf.byteslice(n, buf.bytesize - n) || "".b
        s
      end

      def __out(str, buf)
        return str unless buf
        buf.replace(str)
      end

      def read(size = nil, buf = nil)
        if size.nil?
          nil while __fill
          return __out(__take(__rbuf.bytesize), buf)
        end
        raise ArgumentError, "negative length #{size} given" if size < 0
        return __out("".b, buf) if size == 0
        while __rbuf.bytesize < size
          break unless __fill
        end
        return (buf&.replace(""); nil) if __rbuf.empty?
        __out(__take(size), buf)
      end

      def readpartial(maxlen, buf = nil)
        return __out("".b, buf) if maxlen == 0
        if __rbuf.empty?
          return __out(sysread(maxlen), buf)
        end
        __out(__take(maxlen), buf)
      end

      def read_nonblock(maxlen, buf = nil, exception: true)
        return __out("".b, buf) if maxlen == 0
        return __out(__take(maxlen), buf) unless __rbuf.empty?
        sysread_nonblock(maxlen, buf, exception: exception)
      end

      def gets(eol = "\n", limit = nil, chomp: false)
        if eol.is_a?(Integer)
          limit = eol
          eol = "\n"
        end
        return "" if limit == 0
        eol = "\n\n" if eol == ""
        idx = nil
        loop do
          idx = eol ? __rbuf.index(eol) : nil
          break if idx
          break if limit && __rbuf.bytesize >= limit
          break unless __fill
        end
        return nil if __rbuf.empty?
        n = idx ? idx + eol.bytesize : __rbuf.bytesize
        n = limit if limit && limit < n
        line = __take(n)
        line = line.chomp(eol) if chomp && eol
        line
      end

      def each_line(eol = "\n", limit = nil, chomp: false)
        return to_enum(:each_line, eol, limit, chomp: chomp) unless block_given?
        while (line = gets(eol, limit, chomp: chomp))
          yield line
        end
        self
      end
      alias each each_line

      def readline(eol = "\n", limit = nil, chomp: false)
        gets(eol, limit, chomp: chomp) or raise EOFError, "end of file reached"
      end

      def readlines(eol = "\n", limit = nil, chomp: false)
        each_line(eol, limit, chomp: chomp).to_a
      end

      def getc = read(1)
      def readchar = read(1) || raise(EOFError, "end of file reached")
      def getbyte = (c = read(1)) && c.ord
      def readbyte = readchar.ord

      def each_byte
        return to_enum(:each_byte) unless block_given?
        while (b = getbyte)
          yield b
        end
      end

      def ungetc(c)
        @rbuffer = c.to_s.b + __rbuf
        nil
      end

      def eof?
        __rbuf.empty? && !__fill
      end
      alias eof eof?

      def write(*strs)
        strs.sum { |s| __write_all(s.to_s) }
      end

      def __write_all(s)
        total = s.bytesize
        while s.bytesize > 0
          n = syswrite(s)
          s = s.byteslice(n, s.bytesize - n)
        end
        total
      end

      def <<(s)
        write(s)
        self
      end

      def print(*args)
        write(*args)
        nil
      end

      def printf(fmt, *args)
        write(format(fmt, *args))
        nil
      end

      def puts(*args)
        return (write("\n"); nil) if args.empty?
        args.flatten.each do |a|
          s = a.nil? ? "" : a.to_s
          write(s.end_with?("\n") ? s : s + "\n")
        end
        nil
      end

      def write_nonblock(s, exception: true) = syswrite_nonblock(s, exception: exception)
      def flush = self

      def close
        sysclose
        nil
      end
    end

    class SSLSocket
      include Buffering

      attr_reader :io, :context, :hostname
      attr_accessor :sync_close
      alias to_io io

      def self.open(host, port, local_host = nil, local_port = nil, context: SSLContext.new)
        new(TCPSocket.new(host, port, local_host, local_port), context)
      end

      def initialize(io, context = SSLContext.new)
        @io = io
        @context = context
        @sync_close = false
        @hostname = nil
        @sync = true
        @started = false
        context.setup
      end

      def hostname=(name)
        raise ArgumentError, "hostname must be set before the handshake" if @started
        @hostname = name
      end

      def __start(server)
        return if @started
        __init(@context, @io.fileno, @hostname, server)
        @started = true
        if !server && @hostname && @context.verify_hostname && ((@context.verify_mode || 0) & VERIFY_PEER) != 0
          __verify_host(@hostname)
        end
      end

      def connect
        __start(false)
        __connect
        self
      end

      def accept
        __start(true)
        __accept
        self
      end

      def connect_nonblock(exception: true)
        __start(false)
        __nonblock_result(__connect(true), exception)
      end

      def accept_nonblock(exception: true)
        __start(true)
        __nonblock_result(__accept(true), exception)
      end

      def __nonblock_result(r, exception)
        case r
        when :wait_readable
          return r unless exception
          raise SSLErrorWaitReadable, "read would block"
        when :wait_writable
          return r unless exception
          raise SSLErrorWaitWritable, "write would block"
        else r
        end
      end

      def sysread(len, buf = nil)
        data = __read(len, false)
        if data.nil?
          buf&.replace("")
          raise EOFError, "end of file reached"
        end
        data.force_encoding(Encoding::BINARY)
        __out(data, buf)
      end

      def sysread_nonblock(len, buf = nil, exception: true)
        data = __read(len, true)
        if data.nil?
          return nil unless exception
          raise EOFError, "end of file reached"
        end
        return __nonblock_result(data, exception) if data.is_a?(Symbol)
        __out(data.force_encoding(Encoding::BINARY), buf)
      end

      def syswrite(str) = __write(str.to_s, false)

      def syswrite_nonblock(str, exception: true)
        __nonblock_result(__write(str.to_s, true), exception)
      end

      def sysclose
        return if @closed
        @closed = true
        __close
        @io.close if @sync_close && !@io.closed?
        nil
      end

      def stop = __close

      def post_connection_check(hostname)
        unless peer_cert&.__check_host(hostname)
          raise SSLError, "hostname \"#{hostname}\" does not match the server certificate"
        end
        true
      end

      def closed? = @io.closed?
      def fileno = @io.fileno
      def addr = @io.addr
      def peeraddr = @io.peeraddr
      def local_address = @io.local_address
      def remote_address = @io.remote_address
      def setsockopt(*args) = @io.setsockopt(*args)
      def getsockopt(*args) = @io.getsockopt(*args)
      def wait_readable(*args) = @io.wait_readable(*args)
      def wait_writable(*args) = @io.wait_writable(*args)

      def inspect = "#<#{self.class.name}:fd #{@io.closed? ? 'closed' : @io.fileno}>"
    end

    # A TCPServer whose accept gives handshaken SSLSockets
    class SSLServer
      attr_accessor :start_immediately
      attr_reader :context

      def initialize(server, context)
        @svr = server
        @context = context
        @start_immediately = true
        context.setup
      end

      def to_io = @svr
      def listen(backlog = 5) = @svr.listen(backlog)
      def addr = @svr.addr
      def close = @svr.close
      def closed? = @svr.closed?

      def accept
        sock = @svr.accept
        ssl = SSLSocket.new(sock, @context)
        ssl.sync_close = true
        begin
          ssl.accept if @start_immediately
        rescue Exception
          ssl.close
          raise
        end
        ssl
      end
    end
  end
end
