# Resolv::DNS (part of require "resolv"): the resolver, its Config, and the message format.
class Resolv
  class DNS
    include Lookups
    Port = 53
    UDPSize = 512

    class DecodeError < StandardError; end
    class EncodeError < StandardError; end

    module OpCode
      Query = 0
      IQuery = 1
      Status = 2
      Notify = 4
      Update = 5
    end

    module RCode
      NoError = 0
      FormErr = 1
      ServFail = 2
      NXDomain = 3
      NotImp = 4
      Refused = 5
    end

    def self.open(*args)
      dns = new(*args)
      return dns unless block_given?
      begin
        yield dns
      ensure
        dns.close
      end
    end

    def initialize(config_info = nil)
      @config = Config.new(config_info)
      @timeouts = nil
    end

    def timeouts=(values)
      @timeouts = values.nil? ? nil : Array(values)
    end

    def close = nil

    def each_address(name)
      each_resource(name, Resource::IN::A) { |r| yield r.address }
      each_resource(name, Resource::IN::AAAA) { |r| yield r.address } if @config.use_ipv6?
    end

    def each_name(address)
      ptr = case address
            when Name then address
            when IPv4::Regex then IPv4.create(address).to_name
            when IPv6::Regex then IPv6.create(address).to_name
            when IPv4, IPv6 then address.to_name
            else raise ResolvError, "cannot interpret as address: #{address}"
            end
      each_resource(ptr, Resource::IN::PTR) { |r| yield r.name }
    end

    private def no_address(name) = "DNS result has no information for #{name}"
    private def no_name(address) = "DNS result has no information for #{address}"

    def getresource(name, typeclass)
      each_resource(name, typeclass) { |r| return r }
      raise ResolvError, "DNS result has no information for #{name}"
    end

    def getresources(name, typeclass)
      ret = []
      each_resource(name, typeclass) { |r| ret << r }
      ret
    end

    def each_resource(name, typeclass, &proc)
      fetch_resource(name, typeclass) do |reply, reply_name|
        extract_resources(reply, reply_name, typeclass, &proc)
      end
    end

    # yields the first reply with an answer (rcode NoError) for the first candidate name that has one
    def fetch_resource(name, typeclass)
      @config.candidates(name).each do |candidate|
        msg = Message.new
        msg.rd = 1
        msg.add_question(candidate, typeclass)
        reply = @config.nameservers.each do |host, port|
          r = query(msg, host, port)
          break r if r
        end
        next unless reply.is_a?(Message)
        case reply.rcode
        when RCode::NoError
          yield reply, candidate
          return
        when RCode::NXDomain then next
        else raise Config::OtherResolvError, "DNS error #{reply.rcode} for #{candidate}"
        end
      end
    end

    # the answers for name of typeclass, through CNAMEs in the same reply
    def extract_resources(msg, name, typeclass)
      yielded = false
      n0 = Name.create(name)
      msg.each_resource do |n, _ttl, data|
        next unless n0 == n
        case data
        when typeclass
          yield data
          yielded = true
        when Resource::CNAME
          n0 = data.name
        end
      end
      return if yielded
      msg.each_resource { |n, _ttl, data| yield data if n0 == n && data.is_a?(typeclass) }
    end

    # one question to one server: UDP with the timeouts, then TCP when the reply was truncated;
    # nil when the server did not answer
    def query(msg, host, port)
      data = msg.encode
      (@timeouts || @config.timeouts).each do |timeout|
        reply = udp_exchange(data, msg.id, host, port, timeout)
        next unless reply
        reply = tcp_exchange(data, msg.id, host, port) if reply.tc == 1
        return reply
      end
      nil
    end

    def udp_exchange(data, id, host, port, timeout)
      sock = UDPSocket.new(host.include?(":") ? Socket::AF_INET6 : Socket::AF_INET)
      begin
        sock.send(data, 0, host, port)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
        loop do
          left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
          return nil if left <= 0 || !IO.select([sock], nil, nil, left)
          reply, = sock.recvfrom(UDPSize)
          msg = begin
            Message.decode(reply)
          rescue DecodeError
            next
          end
          return msg if msg.id == id
        end
      ensure
        sock.close
      end
    end

    def tcp_exchange(data, id, host, port)
      sock = TCPSocket.new(host, port)
      begin
        sock.write([data.bytesize].pack("n") + data)
        len = sock.read(2)&.unpack1("n") or return nil
        msg = Message.decode(sock.read(len))
        msg.id == id ? msg : nil
      ensure
        sock.close
      end
    end

    # The nameservers, search domains and ndots: from the options given, else /etc/resolv.conf.
    class Config
      class NXDomain < ResolvError; end
      class OtherResolvError < ResolvError; end

      def self.default_config_hash(filename = "/etc/resolv.conf")
        nameserver = []
        search = nil
        ndots = 1
        begin
          File.read(filename).each_line do |line|
            fields = line.split("#", 2)[0].split(";", 2)[0].split
            case fields[0]
            when "nameserver" then nameserver.concat(fields[1..])
            when "domain" then search = [fields[1]] if fields[1]
            when "search" then search = fields[1..]
            when "options"
              fields[1..].each { |o| ndots = o[6..].to_i if o.start_with?("ndots:") }
            end
          end
        rescue SystemCallError
        end
        nameserver = ["0.0.0.0"] if nameserver.empty?
        { nameserver: nameserver, search: search, ndots: ndots }
      end

      attr_reader :timeouts

      def initialize(info = nil)
        info = Config.default_config_hash if info.nil?
        info = Config.default_config_hash(info) if info.is_a?(String)
        h = info.to_h
        servers = h[:nameserver_port] || Array(h[:nameserver]).map { |s| [s, Port] }
        servers = Config.default_config_hash[:nameserver].map { |s| [s, Port] } if servers.empty?
        @nameservers = servers
        @search = (h[:search] || default_search).map { |s| Name.create("#{s}.").to_a }
        @ndots = h[:ndots] || 1
        @use_ipv6 = h[:use_ipv6]
        @timeouts = [5, 10, 20, 40]
      end

      def default_search
        host = Socket.gethostname rescue ""
        host.include?(".") ? [host.split(".", 2)[1]] : []
      end

      def nameservers = @nameservers

      def use_ipv6? = @use_ipv6.nil? ? false : @use_ipv6

      # the absolute names to try for name, in order
      def candidates(name)
        name = Name.create(name)
        return [name] if name.absolute?
        with_search = @search.map { |domain| Name.new(name.to_a + domain) }
        as_is = Name.new(name.to_a)
        name.length > @ndots ? [as_is] + with_search : with_search + [as_is]
      end
    end

    # A domain name: its labels, and whether it is absolute (ends with ".").
    class Name
      def self.create(arg)
        case arg
        when Name then arg
        when String then new(Label.split(arg), arg.end_with?("."))
        else raise ArgumentError, "cannot interpret as DNS name: #{arg.inspect}"
        end
      end

      def initialize(labels, absolute = true)
        @labels = labels.map { |l| l.is_a?(Label::Str) ? l : Label::Str.new(l.to_s) }
        @absolute = absolute
      end

      def absolute? = @absolute
      def to_a = @labels
      def length = @labels.length
      def [](i) = @labels[i]
      def to_s = @labels.map(&:to_s).join(".")
      def inspect = "#<#{self.class}: #{self}#{@absolute ? '.' : ''}>"
      def key = @labels.map(&:downcase).join(".")

      def ==(other)
        other.is_a?(Name) && @absolute == other.absolute? && key == other.key
      end
      alias eql? ==
      def hash = [key, @absolute].hash

      # other is a proper suffix of self (www.example.com is a subdomain of example.com)
      def subdomain_of?(other)
        raise ArgumentError, "not a domain name: #{other.inspect}" unless other.is_a?(Name)
        n = other.length
        n < length && @labels[-n..].map(&:downcase) == other.to_a.map(&:downcase)
      end
    end

    module Label
      def self.split(name) = name.split(".").reject(&:empty?).map { |s| Str.new(s) }

      class Str
        attr_reader :string, :downcase

        def initialize(string)
          @string = string
          @downcase = string.downcase
        end

        def to_s = @string
        def inspect = "#<#{self.class} #{self}>"
        def ==(other) = other.is_a?(Str) && @downcase == other.downcase
        alias eql? ==
        def hash = @downcase.hash
      end
    end
  end
end

class Resolv
  DefaultResolver = new
end
