# ipaddr: CRuby's IPAddr (`require "ipaddr"`), an IPv4 or IPv6 address with a netmask, written
# from its documentation and behaviour.
#
#   net = IPAddr.new("192.168.2.0/24")
#   net.include?("192.168.2.7")          # => true
#   IPAddr.new("3ffe:505:2::1").to_s     # => "3ffe:505:2::1"  (to_string: every group, 4 digits)
#
# The address is an Integer (@addr) with its family (Socket::AF_INET or AF_INET6) and a mask
# (@mask_addr); IPv6 may carry a zone ("fe80::1%eth0"). Equality and <=> compare addresses
# only (a mask is not part of them), eql?/hash include it. Where ipaddr versions differ, this is
# the newer one's (Ruby 3.4+: +, -, wildcard_mask, as_json/to_json, zone_id=, multicast?, error
# messages that name the address; `== nil` is false).
require "socket"

class IPAddr
  VERSION = "1.2.6"

  IN4MASK = 0xffffffff
  IN6MASK = 0xffffffffffffffffffffffffffffffff
  IN6FORMAT = (["%.4x"] * 8).join(':').freeze

  class Error < ArgumentError; end
  class InvalidAddressError < Error; end
  class AddressFamilyError < Error; end
  class InvalidPrefixError < InvalidAddressError; end

  attr_reader :family

  def self.new_ntoh(addr)
    new(ntop(addr))
  end

  # The text form of a packed (network byte order) address of 4 or 16 bytes.
  def self.ntop(addr)
    unless addr.encoding == Encoding::BINARY
      raise InvalidAddressError, "invalid encoding (given #{addr.encoding}, expected BINARY)"
    end
    bytes = addr.bytes
    case bytes.size
    when 4 then bytes.join('.')
    when 16 then IN6FORMAT % bytes.each_slice(2).map { |hi, lo| hi * 256 + lo }
    else raise AddressFamilyError, "unsupported address family"
    end
  end

  def initialize(addr = '::', family = Socket::AF_UNSPEC)
    @mask_addr = nil
    @zone_id = nil
    if !addr.is_a?(String)
      case family
      when Socket::AF_INET, Socket::AF_INET6
        set(addr.to_i, family)
        @mask_addr = family == Socket::AF_INET ? IN4MASK : IN6MASK
        return
      when Socket::AF_UNSPEC
        raise AddressFamilyError, "address family must be specified"
      else
        raise AddressFamilyError, "unsupported address family: #{family}"
      end
    end
    @text = addr
    invalid_address if addr.include?("\n")
    prefix, prefixlen = addr.split('/', 2)
    invalid_address if prefixlen && prefixlen.include?('/')
    if prefix.start_with?('[') && prefix.end_with?(']')
      prefix = prefix[1..-2]
      invalid_address if prefix.include?('.') && !prefix.include?(':')
      family = Socket::AF_INET6
    end
    if prefix.include?('%')
      prefix, zone = prefix.split('%', 2)
      @zone_id = '%' + zone
      invalid_address unless zone_id_text?(@zone_id)
    end
    @addr = @family = nil
    if family == Socket::AF_UNSPEC || family == Socket::AF_INET
      @addr = in_addr(prefix)
      @family = Socket::AF_INET if @addr
    end
    if !@addr && (family == Socket::AF_UNSPEC || family == Socket::AF_INET6)
      @addr = in6_addr(prefix)
      @family = Socket::AF_INET6
    end
    @zone_id = nil unless @family == Socket::AF_INET6
    if family != Socket::AF_UNSPEC && @family != family
      raise AddressFamilyError, "address family mismatch"
    end
    if prefixlen
      mask!(prefixlen)
    else
      @mask_addr = @family == Socket::AF_INET ? IN4MASK : IN6MASK
    end
  end

  def to_i
    @addr
  end

  def zone_id
    raise InvalidAddressError, "not an IPv6 address: #{to_s}" unless ipv6?
    @zone_id
  end

  def zone_id=(zid)
    raise InvalidAddressError, "not an IPv6 address: #{to_s}" unless ipv6?
    if zid.nil?
      @zone_id = nil
    elsif zone_id_text?(zid)
      @zone_id = zid
    else
      raise InvalidAddressError, "invalid zone identifier for address"
    end
  end

  def ipv4?
    @family == Socket::AF_INET
  end

  def ipv6?
    @family == Socket::AF_INET6
  end

  def prefix
    mask = @mask_addr
    max = ipv4? ? 32 : 128
    ones = 0
    while ones < max && mask[max - 1 - ones] == 1
      ones += 1
    end
    ones
  end

  def prefix=(prefix)
    raise InvalidPrefixError, "prefix must be an integer" unless prefix.is_a?(Integer)
    mask!(prefix)
  end

  def netmask
    _to_string(@mask_addr)
  end

  def wildcard_mask
    _to_string(@mask_addr ^ (ipv4? ? IN4MASK : IN6MASK))
  end

  def as_json(*)
    full = ipv4? ? 32 : 128
    prefix == full ? to_s : "#{to_s}/#{prefix}"
  end

  def to_json(*args)
    "\"#{as_json}\""
  end

  # The compressed form: "3ffe:505:2::1", "::ffff:192.168.1.1".
  def to_s
    return _to_string(@addr) if ipv4?
    if ipv4_mapped?
      str = "::ffff:" + _ipv4_text(@addr & IN4MASK)
    elsif ipv4_compat? && @addr > 0xffff
      str = "::" + _ipv4_text(@addr)
    else
      groups = _groups(@addr).map { |g| g.to_s(16) }
      start, len = _longest_zero_run(groups)
      str = if len >= 2
              (groups[0, start].join(':') + '::' + groups[(start + len)..].join(':'))
            else
              groups.join(':')
            end
    end
    @zone_id ? str + @zone_id : str
  end

  # Every group: "192.168.001.001" is not done (IPv4 stays plain), IPv6 gets 8 groups of 4 digits.
  def to_string
    _to_string(@addr) + (@zone_id || '')
  end

  def cidr
    "#{to_s}/#{prefix}"
  end

  def hton
    n = ipv4? ? 4 : 16
    (0...n).map { |i| (@addr >> (8 * (n - 1 - i))) & 0xff }.pack('C*')
  end

  def inspect
    af = ipv4? ? "IPv4" : "IPv6"
    "#<#{self.class}: #{af}:#{_to_string(@addr)}#{@zone_id}/#{_to_string(@mask_addr)}>"
  end

  def include?(other)
    other = coerce_other(other)
    return false unless other.family == family
    begin_addr <= other.begin_addr && end_addr >= other.end_addr
  end
  alias === include?

  def &(other)
    self.clone.set(@addr & coerce_other(other).to_i)
  end

  def |(other)
    self.clone.set(@addr | coerce_other(other).to_i)
  end

  def >>(num)
    self.clone.set(@addr >> num)
  end

  def <<(num)
    self.clone.set(addr_mask(@addr << num))
  end

  def ~
    self.clone.set(addr_mask(~@addr))
  end

  def ==(other)
    other = coerce_other(other)
  rescue
    false
  else
    @family == other.family && @addr == other.to_i
  end

  def <=>(other)
    other = coerce_other(other)
  rescue
    nil
  else
    @addr <=> other.to_i if other.family == @family
  end
  include Comparable

  def eql?(other)
    self.class == other.class && hash == other.hash && self == other
  end

  def hash
    ([@addr, @mask_addr, @zone_id].hash << 1) | (ipv4? ? 0 : 1)
  end

  def mask(prefixlen)
    self.clone.mask!(prefixlen)
  end

  def succ
    self.clone.set(@addr + 1, @family)
  end

  def +(offset)
    self.clone.set(@addr + offset, @family)
  end

  def -(offset)
    self.clone.set(@addr - offset, @family)
  end

  def to_range
    self.class.new(begin_addr, @family)..self.class.new(end_addr, @family)
  end

  def reverse
    case @family
    when Socket::AF_INET then _reverse + ".in-addr.arpa"
    else ip6_arpa
    end
  end

  def ip6_arpa
    raise InvalidAddressError, "not an IPv6 address: #{to_s}" unless ipv6?
    _reverse + ".ip6.arpa"
  end

  def ip6_int
    raise InvalidAddressError, "not an IPv6 address: #{to_s}" unless ipv6?
    _reverse + ".ip6.int"
  end

  def ipv4_mapped?
    ipv6? && (@addr >> 32) == 0xffff
  end

  def ipv4_compat?
    ipv6? && (@addr >> 32) == 0 && @addr != 0 && @addr != 1
  end

  def ipv4_mapped
    raise InvalidAddressError, "not an IPv4 address: #{to_s}" unless ipv4?
    self.clone.set(@addr | 0xffff00000000, Socket::AF_INET6)
  end

  def ipv4_compat
    raise InvalidAddressError, "not an IPv4 address: #{to_s}" unless ipv4?
    self.clone.set(@addr, Socket::AF_INET6)
  end

  # An IPv4-mapped or -compatible IPv6 address as IPv4; others as they are.
  def native
    return self unless ipv4_mapped? || ipv4_compat?
    self.clone.set(@addr & IN4MASK, Socket::AF_INET)
  end

  def loopback?
    if ipv4?
      (@addr & 0xff000000) == 0x7f000000
    else
      @addr == 1 || (ipv4_mapped? && (@addr & 0xff000000) == 0x7f000000)
    end
  end

  def private?
    if ipv4?
      private_v4?(@addr)
    else
      (@addr & 0xfe00_0000_0000_0000_0000_0000_0000_0000) == 0xfc00_0000_0000_0000_0000_0000_0000_0000 ||
        (ipv4_mapped? && private_v4?(@addr & IN4MASK))
    end
  end

  def multicast?
    if ipv4?
      (@addr & 0xf0000000) == 0xe0000000
    else
      (@addr >> 120) == 0xff || (ipv4_mapped? && ((@addr & IN4MASK) & 0xf0000000) == 0xe0000000)
    end
  end

  def link_local_multicast?
    if ipv4?
      (@addr & 0xffffff00) == 0xe0000000
    else
      (@addr >> 112) == 0xff02 || (ipv4_mapped? && ((@addr & IN4MASK) & 0xffffff00) == 0xe0000000)
    end
  end

  def link_local?
    if ipv4?
      (@addr & 0xffff0000) == 0xa9fe0000
    else
      (@addr & 0xffc0_0000_0000_0000_0000_0000_0000_0000) == 0xfe80_0000_0000_0000_0000_0000_0000_0000 ||
        (ipv4_mapped? && ((@addr & IN4MASK) & 0xffff0000) == 0xa9fe0000)
    end
  end

  protected

  def begin_addr
    @addr & @mask_addr
  end

  def end_addr
    max = ipv4? ? IN4MASK : IN6MASK
    (@addr & @mask_addr) | (max ^ @mask_addr)
  end

  def set(addr, *family)
    case family[0] ? family[0] : @family
    when Socket::AF_INET
      raise InvalidAddressError, "invalid address: #{@addr}" if addr < 0 || addr > IN4MASK
    when Socket::AF_INET6
      raise InvalidAddressError, "invalid address: #{@addr}" if addr < 0 || addr > IN6MASK
    else
      raise AddressFamilyError, "unsupported address family"
    end
    @addr = addr
    if family[0]
      if @family == Socket::AF_INET && family[0] == Socket::AF_INET6
        @mask_addr = (IN6MASK ^ IN4MASK) | @mask_addr   # a v4 prefix of n bits is one of 96 + n
      elsif family[0] == Socket::AF_INET
        @mask_addr &= IN4MASK
        @zone_id = nil
      end
      @family = family[0]
    end
    self
  end

  def mask!(mask)
    max = ipv4? ? 32 : 128
    if mask.is_a?(String)
      if !mask.empty? && mask.bytes.all? { |b| b >= 48 && b <= 57 }
        raise InvalidPrefixError, "invalid length: #{mask}" if mask.size > 1 && mask.start_with?('0')
        prefixlen = mask.to_i
      else
        m = self.class.new(mask)
        raise InvalidPrefixError, "address family is not same" unless m.family == @family
        bits = m.to_i
        prefixlen = 0
        prefixlen += 1 while prefixlen < max && bits[max - 1 - prefixlen] == 1
        if bits != ((1 << max) - 1) ^ ((1 << (max - prefixlen)) - 1)
          raise InvalidPrefixError, "invalid mask #{mask}"
        end
      end
    else
      prefixlen = mask
    end
    raise InvalidPrefixError, "invalid length: #{prefixlen}" if prefixlen < 0 || prefixlen > max
    all = (1 << max) - 1
    @mask_addr = all ^ ((1 << (max - prefixlen)) - 1)
    @addr &= @mask_addr
    self
  end

  private

  def private_v4?(a)
    (a & 0xff000000) == 0x0a000000 || (a & 0xfff00000) == 0xac100000 || (a & 0xffff0000) == 0xc0a80000
  end

  def coerce_other(other)
    case other
    when IPAddr then other
    when String then self.class.new(other)
    when Integer then self.class.new(other, @family)
    else raise InvalidAddressError, "invalid address: #{other.inspect}"
    end
  end

  def invalid_address
    raise InvalidAddressError, "invalid address: #{@text}"
  end

  # "%" and one or more of letters, digits, "_", ".", "-"
  def zone_id_text?(zid)
    zid.is_a?(String) && zid.size > 1 && zid.start_with?('%') &&
      zid[1..].bytes.all? { |b| (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 46 || b == 45 }
  end

  def addr_mask(addr)
    addr & (ipv4? ? IN4MASK : IN6MASK)
  end

  def _groups(addr)
    (0...8).map { |i| (addr >> (16 * (7 - i))) & 0xffff }
  end

  def _ipv4_text(addr)
    [24, 16, 8, 0].map { |s| (addr >> s) & 0xff }.join('.')
  end

  def _to_string(addr)
    ipv4? ? _ipv4_text(addr) : IN6FORMAT % _groups(addr)
  end

  # [start, length] of the leftmost longest run of "0" groups.
  def _longest_zero_run(groups)
    best_start = best_len = 0
    i = 0
    while i < groups.size
      if groups[i] == '0'
        j = i
        j += 1 while j < groups.size && groups[j] == '0'
        if j - i > best_len
          best_start, best_len = i, j - i
        end
        i = j
      else
        i += 1
      end
    end
    [best_start, best_len]
  end

  def _reverse
    if ipv4?
      [0, 8, 16, 24].map { |s| (@addr >> s) & 0xff }.join('.')
    else
      (0...32).map { |i| ((@addr >> (4 * i)) & 0xf).to_s(16) }.join('.')
    end
  end

  DIGITS = "0123456789"
  HEX = "0123456789abcdefABCDEF"
  private_constant :DIGITS, :HEX

  # The IPv4 address in addr as an Integer, or nil if addr is not one (an error if it looks like
  # one but is wrong).
  def in_addr(addr)
    parts = addr.split('.', -1)
    return nil unless parts.size == 4 && parts.all? { |p| !p.empty? && p.count(DIGITS) == p.size }
    parts.inject(0) do |n, p|
      if p.size > 1 && p.start_with?('0')
        raise InvalidAddressError, "zero-filled number in IPv4 address is ambiguous: #{@text}"
      end
      v = p.to_i
      invalid_address if v > 255
      (n << 8) | v
    end
  end

  def in6_addr(addr)
    invalid = -> { invalid_address }
    tail = 0
    tail_groups = 0
    if addr.include?('.')
      head, sep, v4 = addr.rpartition(':')
      invalid.call if sep.empty?
      tail = in_addr(v4) || invalid.call
      tail_groups = 2
      # "::1.2.3.4" leaves ":" (so "::"), "1:2::1.2.3.4" "1:2:" (so "1:2::"), "1:2:3:4:5:6:1.2.3.4" "1:2:3:4:5:6"
      addr = head.end_with?(':') ? head + ':' : head
    end
    invalid.call if addr.include?(':::') || addr.split('::', -1).size > 2
    if addr.include?('::')
      left, right = addr.split('::', 2)
      l = left.empty? ? [] : left.split(':', -1)
      r = right.empty? ? [] : right.split(':', -1)
      missing = 8 - tail_groups - l.size - r.size
      invalid.call if missing < 1
      groups = l + ['0'] * missing + r
    else
      groups = addr.empty? ? [] : addr.split(':', -1)
      invalid.call unless groups.size + tail_groups == 8
    end
    value = groups.inject(0) do |n, g|
      invalid.call unless !g.empty? && g.size <= 4 && g.count(HEX) == g.size
      (n << 16) | g.to_i(16)
    end
    (value << (32 * tail_groups / 2)) | tail
  end
end
