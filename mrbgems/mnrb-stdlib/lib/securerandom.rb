# require "securerandom": random values for keys, tokens and identifiers, as CRuby's SecureRandom
# (its Random::Formatter methods) has them. Every byte comes from the kernel's generator through
# Random.urandom (mnrb-random: getrandom(2), else /dev/urandom), never from the seeded Random.
#
# n defaults to 16 bytes. hex gives 2n characters; base64 and urlsafe_base64 encode n bytes
# (urlsafe without "=" padding unless asked); uuid (uuid_v4) is a version 4 UUID, uuid_v7 a
# time-ordered version 7 one; random_number(n) is an Integer in 0...n for a positive Integer, a
# Float in 0...n for a positive Float, a member of a Range, and a Float in 0.0...1.0 for 0, nil
# or a negative number. Integers are drawn without modulo bias (a draw beyond the largest
# multiple of n is drawn again).
module SecureRandom
  ALPHANUMERIC = [*"A".."Z", *"a".."z", *"0".."9"]

  def self.gen_random(n)
    Random.urandom(n).b
  end

  def self.bytes(n)
    Random.urandom(n).b
  end

  def self.random_bytes(n = nil)
    n = n ? n.to_int : 16
    raise ArgumentError, "negative string size (or size too big)" if n < 0
    Random.urandom(n).b
  end

  def self.hex(n = nil)
    random_bytes(n).unpack1("H*")
  end

  def self.base64(n = nil)
    [random_bytes(n)].pack("m0")
  end

  def self.urlsafe_base64(n = nil, padding = false)
    s = base64(n).tr("+/", "-_")
    padding ? s : s.delete("=")
  end

  def self.uuid
    b = random_bytes(16).unpack("C*")
    b[6] = (b[6] & 0x0f) | 0x40   # version 4
    b[8] = (b[8] & 0x3f) | 0x80   # RFC 4122 variant
    h = b.pack("C*").unpack1("H*")
    "#{h[0, 8]}-#{h[8, 4]}-#{h[12, 4]}-#{h[16, 4]}-#{h[20, 12]}"
  end

  def self.uuid_v4
    uuid
  end

  # A version 7 UUID: 48 bits of Unix time in milliseconds, then random bits, so that ids made
  # later sort after earlier ones.
  def self.uuid_v7
    now = Time.now
    ms = now.to_i * 1000 + now.usec / 1000
    b = random_bytes(16).unpack("C*")
    6.times { |i| b[i] = (ms >> (8 * (5 - i))) & 0xff }
    b[6] = (b[6] & 0x0f) | 0x70   # version 7
    b[8] = (b[8] & 0x3f) | 0x80   # RFC 4122 variant
    h = b.pack("C*").unpack1("H*")
    "#{h[0, 8]}-#{h[8, 4]}-#{h[12, 4]}-#{h[16, 4]}-#{h[20, 12]}"
  end

  def self.random_number(n = 0)
    case n
    when Integer
      n > 0 ? __uniform_int(n) : __float
    when Float
      n > 0 ? __float * n : __float
    when Range
      __from_range(n)
    when nil
      __float
    else
      raise ArgumentError, "invalid argument - #{n.inspect}"
    end
  end

  def self.rand(n = 0)
    random_number(n)
  end

  def self.alphanumeric(n = nil, chars: ALPHANUMERIC)
    n = n ? n.to_int : 16
    Array.new(n) { chars[__uniform_int(chars.size)] }.join
  end

  # An Integer in 0...n, each equally likely.
  def self.__uniform_int(n)
    return 0 if n == 1
    nbytes = ((n - 1).bit_length + 7) / 8
    space = 1 << (nbytes * 8)
    limit = space - space % n
    loop do
      v = 0
      Random.urandom(nbytes).each_byte { |b| v = (v << 8) | b }
      return v % n if v < limit
    end
  end

  # A Float in 0.0...1.0 with 53 random bits.
  def self.__float
    hi, lo = Random.urandom(8).unpack("NN")
    ((hi >> 5) * 67108864.0 + (lo >> 6)) / 9007199254740992.0
  end

  def self.__from_range(r)
    first = r.begin
    last = r.end
    if first.is_a?(Integer) && last.is_a?(Integer)
      span = last - first + (r.exclude_end? ? 0 : 1)
      raise ArgumentError, "invalid argument - #{r.inspect}" if span <= 0
      first + __uniform_int(span)
    elsif first.is_a?(Numeric) && last.is_a?(Numeric)
      span = (last - first).to_f
      raise ArgumentError, "invalid argument - #{r.inspect}" if span < 0 || (span == 0 && r.exclude_end?)
      first + __float * span
    else
      raise ArgumentError, "invalid argument - #{r.inspect}"
    end
  end
end
