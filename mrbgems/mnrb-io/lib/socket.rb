# The Ruby half of mnrb's sockets (src/socket.c has the C half), loaded by `require "socket"` after
# mruby-socket's own classes: getaddrinfo without the GVL, connects and accepts through the event
# loop, CRuby's keyword arguments.

class Addrinfo
  # getaddrinfo(3) without holding the GVL (a DNS query must not stall the ractor)
  def self.getaddrinfo(nodename, service, family = nil, socktype = nil, protocol = nil, flags = 0)
    unless nodename.nil? || nodename.is_a?(String)
      raise TypeError, "nodename must be String or nil"
    end
    service = service.to_s if service.is_a?(Integer)
    unless service.nil? || service.is_a?(String)
      raise TypeError, "service must be String, Integer, or nil"
    end
    family = socket_constant(family, "AF_", "PF_", "domain")
    socktype = socket_constant(socktype, "SOCK_", nil, "type")
    _lookup(nodename, service, family || 0, socktype || 0, protocol || 0, flags || 0).map do |sa, fam, type, proto|
      new(sa, fam, type, proto)
    end
  end
end

class Addrinfo
  # CRuby's names for a family or type: :INET, "INET", :AF_INET, :SOCK_STREAM, :STREAM ...
  def self.socket_constant(v, prefix, alt_prefix, what)
    return v unless v.is_a?(Symbol) || v.is_a?(String)
    name = v.to_s
    [name, "#{prefix}#{name}", alt_prefix && "#{alt_prefix}#{name}"].each do |c|
      return Socket.const_get(c) if c && c.start_with?(prefix, *alt_prefix) && Socket.const_defined?(c)
    end
    raise SocketError, "unknown socket #{what}: #{name}"
  end
end

class IPSocket
  def recvfrom(maxlen, flags = 0)
    msg, sa = _recvfrom(maxlen, flags)
    ai = Addrinfo.new(sa)
    family = ai.ipv6? ? "AF_INET6" : "AF_INET"
    [msg, [family, ai.ip_port, ai.ip_address, ai.ip_address]]
  end
end

class TCPSocket
  # TCPSocket.new(host, port, local_host = nil, local_port = nil, connect_timeout: nil): tries each
  # address getaddrinfo gives; a socket that failed to connect is closed.
  def initialize(host, service, local_host = nil, local_service = nil, connect_timeout: nil)
    if @init_with_fd
      super(host, service)
      return
    end
    error = nil
    Addrinfo.foreach(host, service, nil, Socket::SOCK_STREAM) do |ai|
      s = nil
      begin
        s = Socket._socket(ai.afamily, Socket::SOCK_STREAM, 0)
        if local_host || local_service
          local_host ||= (ai.afamily == Socket::AF_INET) ? "0.0.0.0" : "::"
          local_service ||= "0"
          bi = Addrinfo.getaddrinfo(local_host, local_service, ai.afamily, ai.socktype)[0]
          Socket._bind(s, bi.to_sockaddr)
        end
        Socket._connect(s, ai.to_sockaddr, connect_timeout)
        super(s, "r+")
        return
      rescue => e
        IO._sysclose(s) if s
        error = e
      end
    end
    raise error || SocketError.new("getaddrinfo: no address for #{host}")
  end
end

class TCPServer
  # CRuby listens with a backlog of SOMAXCONN; mruby-socket's 5 drops connections under load.
  def initialize(host = nil, service)
    ai = Addrinfo.getaddrinfo(host, service, nil, Socket::SOCK_STREAM, nil, Socket::AI_PASSIVE)[0]
    @init_with_fd = true
    super(Socket._socket(ai.afamily, Socket::SOCK_STREAM, 0), "r+")
    setsockopt(Socket::SOL_SOCKET, Socket::SO_REUSEADDR, true)
    Socket._bind(fileno, ai.to_sockaddr)
    listen(Socket::SOMAXCONN)
    self
  end

  # The listening socket stays non-blocking (mruby-socket's toggled it back to blocking).
  def accept_nonblock(exception: true)
    if _wait(IO::READABLE, 0) == 0
      return :wait_readable unless exception
      raise IO::EAGAINWaitReadable, "accept(2) would block"
    end
    accept
  end
end

class UNIXServer
  def initialize(path)
    fd = Socket._socket(Socket::AF_UNIX, Socket::SOCK_STREAM, 0)
    begin
      super(fd)
      Socket._bind(fd, Socket.pack_sockaddr_un(path))
      listen(Socket::SOMAXCONN)
    rescue => e
      IO._sysclose(fd) rescue nil
      raise e
    end
    if block_given?
      begin
        yield self
      ensure
        close rescue nil
        File.unlink(path) rescue nil
      end
    end
  end
end

# Socket.tcp and Socket.unix as CRuby's: a connected socket, or with a block the block's value, the
# socket closed after it. connect_timeout: bounds the connection (Errno::ETIMEDOUT, as CRuby).
class Socket
  def self.tcp(host, port, local_host = nil, local_port = nil, connect_timeout: nil, resolv_timeout: nil)
    sock = if connect_timeout
             require "timeout"
             begin
               Timeout.timeout(connect_timeout) { TCPSocket.new(host, port, local_host, local_port) }
             rescue Timeout::Error
               raise Errno::ETIMEDOUT, "user specified timeout"
             end
           else
             TCPSocket.new(host, port, local_host, local_port)
           end
    return sock unless block_given?
    begin
      yield sock
    ensure
      sock.close unless sock.closed?
    end
  end

  def self.unix(path)
    sock = UNIXSocket.new(path)
    return sock unless block_given?
    begin
      yield sock
    ensure
      sock.close unless sock.closed?
    end
  end
end

# Socket.tcp_server_sockets(host = nil, port) as CRuby's: a listening Socket (SO_REUSEADDR; IPv6
# ones IPv6-only) for each address of host (with nil, the wildcard addresses of IPv4 and IPv6), all
# on one port: port 0 binds the first to a free port and the others to the same one. With a block,
# the block's value, the sockets closed after it. accept_loop and tcp_server_loop serve on them.
class Socket
  def self.tcp_server_sockets(host = nil, port)
    sockets = []
    last_error = nil
    chosen = nil
    Addrinfo.getaddrinfo(host, port, nil, Socket::SOCK_STREAM, nil, Socket::AI_PASSIVE).each do |ai|
      next if sockets.any? { |s| s.local_address.ip_address == ai.ip_address }
      begin
        s = Socket.new(ai.afamily, Socket::SOCK_STREAM, 0)
      rescue SystemCallError => e     # an address family this machine lacks
        last_error = e
        next
      end
      begin
        s.setsockopt(Socket::SOL_SOCKET, Socket::SO_REUSEADDR, 1)
        s.setsockopt(Socket::IPPROTO_IPV6, Socket::IPV6_V6ONLY, 1) if ai.ipv6?
        s.bind(Socket.sockaddr_in(chosen || ai.ip_port, ai.ip_address))
        s.listen(Socket::SOMAXCONN)
      rescue SystemCallError => e
        s.close
        raise e unless e.is_a?(Errno::EADDRNOTAVAIL) || e.is_a?(Errno::EAFNOSUPPORT)
        last_error = e
        next
      end
      chosen ||= s.local_address.ip_port
      sockets << s
    end
    raise last_error || SocketError.new("no address for #{host.inspect}") if sockets.empty?
    return sockets unless block_given?
    begin
      yield sockets
    ensure
      sockets.each { |s| s.close unless s.closed? }
    end
  rescue Exception
    sockets.each { |s| s.close unless s.closed? } unless block_given?
    raise
  end

  # accept: [Socket, Addrinfo] (the peer's), as CRuby's (mruby-socket's gave its packed sockaddr)
  def accept
    fd, addr = sysaccept
    sock = Socket.for_fd(fd)
    [sock, Addrinfo.new(addr, Socket::PF_UNSPEC, Socket::SOCK_STREAM, 0)]
  end

  # accept_loop(*sockets) { |sock, addrinfo| }: serves forever, one connection at a time
  def self.accept_loop(*sockets)
    sockets = sockets.flatten
    loop do
      ready, = IO.select(sockets)
      ready.each do |server|
        sock, addr = server.accept
        yield sock, addr
      end
    end
  end

  def self.tcp_server_loop(host = nil, port, &block)
    tcp_server_sockets(host, port) { |sockets| accept_loop(sockets, &block) }
  end
end

class IO
  class EINPROGRESSWaitWritable < Errno::EINPROGRESS
    include IO::WaitWritable
  end
end

class Socket
  # connect_nonblock(sockaddr, exception: true): 0 once connected; a handshake under way raises
  # IO::EINPROGRESSWaitWritable (or returns :wait_writable). The socket is left non-blocking, as
  # CRuby leaves it (mruby-socket's version waited, then made the descriptor blocking).
  def connect_nonblock(sockaddr, exception: true)
    sockaddr = sockaddr.to_sockaddr if sockaddr.is_a?(Addrinfo)
    self.nonblock = true
    err = Socket._connect_once(fileno, sockaddr)
    return 0 if err == 0
    if err == Errno::EINPROGRESS::Errno
      return :wait_writable unless exception
      raise IO::EINPROGRESSWaitWritable, "connect(2) would block"
    end
    return 0 if err == Errno::EISCONN::Errno && !exception
    raise SystemCallError.new("connect(2)", err)
  end
end

# Sockets are sync, as CRuby's: each write goes out at once (BasicSocket#sync is true).
class BasicSocket
  alias_method :_initialize_unsynced, :initialize
  private :_initialize_unsynced

  def initialize(*args)
    _initialize_unsynced(*args)
    self.sync = true
  end

  # (IO.for_fd does not run initialize: UNIXSocket.pair and Socket#accept's sockets come from here)
  def self.for_fd(fd, mode = "r+")
    sock = super(fd, mode)
    sock.sync = true
    sock
  end
end
