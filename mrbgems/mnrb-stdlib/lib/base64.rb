# require "base64": RFC 2045/4648 Base64 as CRuby's Base64 module has it.
#
# Encoding uses Array#pack("m") (60 characters a line, each line ending "\n") and "m0" (one line,
# no newline). Decoding is done here rather than by String#unpack("m"), because mruby's unpack
# is neither CRuby's lenient form nor a strict one: decode64 skips characters outside the
# alphabet and stops at the first "=", strict_decode64 accepts only whole groups of four
# alphabet characters, "=" padding only at the end and zero bits in what padding leaves unused,
# and raises ArgumentError "invalid base64" otherwise. The urlsafe forms swap "+/" for "-_";
# urlsafe_decode64 accepts input without its padding, as CRuby's does.
module Base64
  ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  VALUES = {}
  ALPHABET.each_byte.with_index { |b, i| VALUES[b] = i }
  PAD = "=".ord
  private_constant :ALPHABET, :VALUES, :PAD if respond_to?(:private_constant, true)

  def encode64(bin)
    [bin].pack("m")
  end

  def decode64(str)
    sextets = []
    str.to_str.each_byte do |b|
      break if b == PAD
      v = VALUES[b]
      sextets << v if v
    end
    Base64.__join_sextets(sextets)
  end

  def strict_encode64(bin)
    [bin].pack("m0")
  end

  # What strict_decode64 accepts, as one pattern (Oniguruma checks it in C, then unpack decodes):
  # whole groups of four, and a last group with one "=" whose third character leaves its low two
  # bits zero, or with two whose second character leaves its low four bits zero.
  STRICT = Regexp.new('\A(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=|[A-Za-z0-9+/][AQgw]==)?\z')
  private_constant :STRICT if respond_to?(:private_constant, true)

  def strict_decode64(str)
    str = str.to_str
    raise ArgumentError, "invalid base64" unless STRICT.match?(str)
    str.unpack1("m0")
  end

  def urlsafe_encode64(bin, padding: true)
    str = strict_encode64(bin)
    str = str.delete("=") unless padding
    str.tr("+/", "-_")
  end

  def urlsafe_decode64(str)
    str = str.to_str
    if !str.end_with?("=") && str.bytesize % 4 != 0
      str = str.ljust((str.bytesize + 3) & ~3, "=")
    end
    strict_decode64(str.tr("-_", "+/"))
  end

  module_function :encode64, :decode64, :strict_encode64, :strict_decode64,
                  :urlsafe_encode64, :urlsafe_decode64

  # Packs six-bit values into bytes; a trailing group of one value makes no byte.
  def self.__join_sextets(sextets)
    bytes = []
    i = 0
    n = sextets.size
    while i + 4 <= n
      v = (sextets[i] << 18) | (sextets[i + 1] << 12) | (sextets[i + 2] << 6) | sextets[i + 3]
      bytes << (v >> 16) << ((v >> 8) & 0xff) << (v & 0xff)
      i += 4
    end
    rest = n - i
    if rest >= 2
      v = (sextets[i] << 18) | (sextets[i + 1] << 12) | (rest == 3 ? sextets[i + 2] << 6 : 0)
      bytes << (v >> 16)
      bytes << ((v >> 8) & 0xff) if rest == 3
    end
    bytes.pack("C*")
  end
end
