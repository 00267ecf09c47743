# require "resolv": CRuby's pure-Ruby resolver. Resolv (the default resolver: /etc/hosts, then
# DNS), Resolv::Hosts (a hosts file), Resolv::DNS (UDP queries to the nameservers of
# /etc/resolv.conf or of the nameserver: / nameserver_port: options; TCP when a reply is truncated),
# Resolv::DNS::Message (the wire format, RFC 1035, with name compression as CRuby's encoder does
# it: the same bytes), Names, the common IN resources (A, AAAA, NS, CNAME, PTR, MX, TXT, SOA, SRV)
# and Resolv::IPv4 / IPv6.
#
# Left out: mDNS, Resolv::LOC, DNS over an explicitly given source port, the Resolv::DNS::Config
# options other than nameserver, nameserver_port, search and ndots.
class Resolv
  class ResolvError < StandardError; end
  class ResolvTimeout < StandardError; end

  # getaddress/getaddresses/getname/getnames over each_address/each_name, the same in Resolv,
  # Hosts and DNS (mnrb's; CRuby writes them in each): the first one or all of them; a lookup that
  # finds none raises ResolvError with the resolver's own words (no_address, no_name).
  module Lookups
    def getaddress(name)
      each_address(name) { |address| return address }
      raise ResolvError, no_address(name)
    end

    def getaddresses(name)
      ret = []
      each_address(name) { |address| ret << address }
      ret
    end

    def getname(address)
      each_name(address) { |name| return name }
      raise ResolvError, no_name(address)
    end

    def getnames(address)
      ret = []
      each_name(address) { |name| ret << name }
      ret
    end
  end
  include Lookups

  def self.getaddress(name) = DefaultResolver.getaddress(name)
  def self.getaddresses(name) = DefaultResolver.getaddresses(name)
  def self.each_address(name, &block) = DefaultResolver.each_address(name, &block)
  def self.getname(address) = DefaultResolver.getname(address)
  def self.getnames(address) = DefaultResolver.getnames(address)
  def self.each_name(address, &block) = DefaultResolver.each_name(address, &block)

  def initialize(resolvers = nil, use_ipv6: nil)
    @resolvers = resolvers || [Hosts.new, DNS.new(DNS::Config.default_config_hash.merge(use_ipv6: use_ipv6))]
  end

  def each_address(name)
    if AddressRegex.match?(name)
      yield name
      return
    end
    found = false
    @resolvers.each do |r|
      r.each_address(name) do |address|
        yield address.to_s
        found = true
      end
      return if found
    end
  end

  def each_name(address)
    found = false
    @resolvers.each do |r|
      r.each_name(address) do |name|
        yield name.to_s
        found = true
      end
      return if found
    end
  end

  # An IPv4 address: its 4 bytes.
  private def no_address(name) = "no address for #{name}"
  private def no_name(address) = "no name for #{address}"

  class IPv4
    # Patterns are Regexp.new: lib/ code may not add symbols, as /literals/ do (feature_build.rb)
    Regex256 = Regexp.new('0|1(?:[0-9][0-9]?)?|2(?:[0-4][0-9]?|5[0-5]?|[6-9])?|[3-9][0-9]?')
    Regex = Regexp.new("\\A(#{Regex256})\\.(#{Regex256})\\.(#{Regex256})\\.(#{Regex256})\\z")

    def self.create(arg)
      case arg
      when IPv4 then arg
      when String
        m = Regex.match(arg) or raise ArgumentError, "cannot interpret as IPv4 address: #{arg.inspect}"
        new(m.captures.map(&:to_i).pack("CCCC"))
      else raise ArgumentError, "cannot interpret as IPv4 address: #{arg.inspect}"
      end
    end

    attr_reader :address

    def initialize(address)
      raise ArgumentError, "IPv4 address expects a bytes string" unless address.is_a?(String)
      raise ArgumentError, "IPv4 address expects 4 bytes but #{address.bytesize} bytes" unless address.bytesize == 4
      @address = address.b
    end

    def to_s = @address.unpack("CCCC").join(".")
    def inspect = "#<#{self.class} #{self}>"
    def to_name = DNS::Name.create("#{@address.unpack("CCCC").reverse.join(".")}.in-addr.arpa.")
    def ==(other) = other.is_a?(IPv4) && @address == other.address
    alias eql? ==
    def hash = @address.hash
  end

  # An IPv6 address: its 16 bytes.
  class IPv6
    Regex_8Hex = Regexp.new('\A(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}\z')
    Regex_CompressedHex = Regexp.new('\A((?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?)::((?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?)\z')
    Regex_6Hex4Dec = Regexp.new('\A((?:[0-9A-Fa-f]{1,4}:){6})(\d+)\.(\d+)\.(\d+)\.(\d+)\z')
    Regex_CompressedHex4Dec = Regexp.new('\A((?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?)::((?:[0-9A-Fa-f]{1,4}:)*)(\d+)\.(\d+)\.(\d+)\.(\d+)\z')
    Regex_8HexLinkLocal = Regexp.new('\A[Ff][Ee]80(?::[0-9A-Fa-f]{1,4}){7}%[-0-9A-Za-z._~]+\z')
    Regex_CompressedHexLinkLocal = Regexp.new('\A[Ff][Ee]80:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?%[-0-9A-Za-z._~]+\z')
    Regex = Regexp.union(Regex_8Hex, Regex_CompressedHex, Regex_6Hex4Dec, Regex_CompressedHex4Dec,
                         Regex_8HexLinkLocal, Regex_CompressedHexLinkLocal)
    ZONE = Regexp.new('%.*\z')
    DOTTED_TAIL = Regexp.new('\A(.*?)(\d+)\.(\d+)\.(\d+)\.(\d+)\z')
    HEX_WORD = Regexp.new('\A[0-9A-Fa-f]{1,4}\z')
    ZERO_RUN = Regexp.new('(\A|:)0(:0)+(:|\z)')

    def self.create(arg)
      return arg if arg.is_a?(IPv6)
      raise ArgumentError, "cannot interpret as IPv6 address: #{arg.inspect}" unless arg.is_a?(String)
      words = parse_words(arg.sub(ZONE, ""))
      raise ArgumentError, "cannot interpret as IPv6 address: #{arg.inspect}" unless words
      new(words.pack("n8"))
    end

    # the 8 16-bit words of a textual address, or nil
    def self.parse_words(s)
      tail4 = nil
      if (m = DOTTED_TAIL.match(s))
        s, bytes = m[1], m.captures[1..].map(&:to_i)
        return nil if bytes.any? { |b| b > 255 } || !(s.end_with?(":"))
        tail4 = [bytes[0] * 256 + bytes[1], bytes[2] * 256 + bytes[3]]
        s = s.end_with?("::") ? s : s.chomp(":")
      end
      hex = ->(part) { part.empty? ? [] : part.split(":", -1).map { |h| HEX_WORD.match?(h) ? h.hex : (return nil) } }
      want = tail4 ? 6 : 8
      if s.include?("::")
        head, tail = s.split("::", -1)
        return nil if tail.nil? || tail.include?("::")
        h = hex.(head) or return nil
        t = hex.(tail) or return nil
        return nil if h.size + t.size >= want
        words = h + [0] * (want - h.size - t.size) + t
      else
        words = hex.(s) or return nil
        return nil unless words.size == want
      end
      tail4 ? words + tail4 : words
    end

    attr_reader :address

    def initialize(address)
      raise ArgumentError, "IPv6 address must be a string" unless address.is_a?(String)
      raise ArgumentError, "IPv6 address must be 16 bytes" unless address.bytesize == 16
      @address = address.b
    end

    # CRuby's form: the first run of two or more zero words becomes "::"
    def to_s
      s = @address.unpack("n8").map { |w| w.to_s(16) }.join(":")
      s.sub(ZERO_RUN, "::")
    end

    def inspect = "#<#{self.class} #{self}>"

    def to_name
      nibbles = @address.unpack1("H32").reverse.chars
      DNS::Name.create("#{nibbles.join(".")}.ip6.arpa.")
    end

    def ==(other) = other.is_a?(IPv6) && @address == other.address
    alias eql? ==
    def hash = @address.hash
  end

  AddressRegex = Regexp.union(IPv4::Regex, IPv6::Regex)

  # A hosts file (/etc/hosts): "address name aliases...", "#" comments. Read at the first lookup.
  class Hosts
    include Lookups
    DefaultFileName = "/etc/hosts"

    def initialize(filename = DefaultFileName)
      @filename = filename
      @addr2name = nil
      @name2addr = nil
    end

    def lazy_initialize
      return self if @name2addr
      name2addr = {}
      addr2name = {}
      text = File.read(@filename)   # a missing file raises Errno::ENOENT at each lookup, as CRuby's
      text.each_line do |line|
        fields = line.split("#", 2)[0].split
        address = fields.shift
        next unless address && !fields.empty?         # not checked to be an address, as CRuby
        address = address.split("%", 2)[0]
        (addr2name[address] ||= []).concat(fields)
        fields.each do |name|
          list = (name2addr[name] ||= [])
          list.unshift(address) unless list.include?(address)   # a later line comes first, as in CRuby
        end
      end
      @name2addr = name2addr
      @addr2name = addr2name
      self
    end

    def each_address(name, &proc)
      lazy_initialize
      (@name2addr[name.to_s] || []).each(&proc)
    end

    def each_name(address, &proc)
      lazy_initialize
      (@addr2name[address.to_s] || []).each(&proc)
    end

    private def no_address(name) = "#{@filename} has no name: #{name}"
    private def no_name(address) = "#{@filename} has no address: #{address}"
  end
end
