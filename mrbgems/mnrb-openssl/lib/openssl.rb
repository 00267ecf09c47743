# OpenSSL (`require "openssl"`): the Ruby half of mnrb-openssl (src/ is the C half). CRuby's forms
# over the C contexts: Digest's digest/hexdigest/base64digest and its named subclasses, HMAC's
# class-level calls, KDF/PKCS5 with CRuby's arguments, the PKey and X509 conveniences.
class Integer
  def to_bn = OpenSSL::BN.new(self)
end

module OpenSSL
  def self.secure_compare(a, b)
    ha = Digest.digest("SHA256", a)
    hb = Digest.digest("SHA256", b)
    fixed_length_secure_compare(ha, hb) && a == b
  end

  class Digest
    def self.digest(name, data) = new(name, data).digest
    def self.hexdigest(name, data) = new(name, data).hexdigest
    def self.base64digest(name, data) = new(name, data).base64digest

    # Class-level calls of the named subclasses (SHA256.digest(data)): no name argument
    module Named
      def digest(data) = new(data).digest
      def hexdigest(data) = new(data).hexdigest
      def base64digest(data) = new(data).base64digest
    end

    # digest(str = nil): with a string, the digest of that string alone (the state is reset before
    # and after); without, the digest of what was fed so far
    def digest(str = nil)
      return __finish if str.nil?
      reset
      update(str)
      value = __finish
      reset
      value
    end

    def hexdigest(str = nil) = digest(str).unpack1("H*").force_encoding(Encoding::US_ASCII)
    def base64digest(str = nil) = [digest(str)].pack("m0")

    def digest!
      value = __finish
      reset
      value
    end

    def hexdigest! = digest!.unpack1("H*").force_encoding(Encoding::US_ASCII)
    def to_s = hexdigest
    def length = digest_length
    def size = digest_length

    def ==(other)
      return to_s == other.to_s if other.is_a?(Digest)
      str = other.to_str rescue (return false)
      str.bytesize == digest_length ? digest == str : hexdigest == str
    end

    def inspect = "#<#{self.class.name}: #{hexdigest}>"

    # Digest::MD5 ... Digest::SHA512: the algorithm named by the class
    %w[MD5 SHA1 SHA224 SHA256 SHA384 SHA512].each do |algorithm|
      const_set(algorithm, Class.new(self) do
        extend Named
        define_method(:initialize) { |data = nil| super(algorithm, data) }
      end)
    end
  end

  def self.Digest(name) = Digest.const_get(name)

  class HMAC
    def self.digest(digest, key, data) = new(key, digest).update(data).digest
    def self.hexdigest(digest, key, data) = new(key, digest).update(data).hexdigest
    def self.base64digest(digest, key, data) = new(key, digest).update(data).base64digest

    def hexdigest = digest.unpack1("H*").force_encoding(Encoding::BINARY)
    def base64digest = [digest].pack("m0")
    def to_s = hexdigest
    def inspect = hexdigest

    def ==(other)
      return false unless other.is_a?(HMAC)
      a = digest
      b = other.digest
      a.bytesize == b.bytesize && OpenSSL.fixed_length_secure_compare(a, b)
    end
  end

  # OpenSSL::BN: an Integer in a wrapper with BN's methods (mruby's Integers are big already);
  # prime? asks libcrypto (BN_check_prime)
  class BN
    include Comparable

    def initialize(value, base = 10)
      @i = case value
           when BN then value.to_i
           when Integer then value
           else
             str = value.to_str
             case base
             when 10 then Integer(str, 10)
             when 16 then str.empty? ? 0 : (str.start_with?("-") ? -Integer(str[1, str.size], 16) : Integer(str, 16))
             when 2 then str.empty? ? 0 : str.unpack1("H*").to_i(16)
             when 0 then str.bytesize < 4 ? 0 : str.byteslice(4, str.bytesize - 4).unpack1("H*").to_i(16) * (str.getbyte(4) & 0x80 == 0 ? 1 : -1)
             else raise ArgumentError, "invalid radix #{base}"
             end
           end
    end

    def to_i = @i
    alias to_int to_i
    alias value to_i

    def to_s(base = 10)
      case base
      when 10 then @i.to_s
      when 16
        h = @i.abs.to_s(16).upcase
        h = "0" + h if h.size.odd?
        @i < 0 ? "-" + h : h
      when 2
        return "".b if @i == 0
        h = @i.abs.to_s(16)
        h = "0" + h if h.size.odd?
        [h].pack("H*")
      else raise ArgumentError, "invalid radix #{base}"
      end
    end

    def self.__int(v) = v.is_a?(BN) ? v.to_i : v.to_int
    def +(o) = BN.new(@i + BN.__int(o))
    def -(o) = BN.new(@i - BN.__int(o))
    def *(o) = BN.new(@i * BN.__int(o))
    def %(o) = BN.new(@i.remainder(BN.__int(o)))
    def **(o) = BN.new(@i**BN.__int(o))
    def <<(n) = BN.new(@i << n)
    def >>(n) = BN.new(@i >> n)
    def -@ = BN.new(-@i)
    def +@ = self
    def abs = BN.new(@i.abs)

    def /(o)
      d = BN.__int(o)
      raise BNError, "div by zero" if d == 0
      q = @i.abs / d.abs
      q = -q if (@i < 0) != (d < 0)
      [BN.new(q), BN.new(@i - q * d)]
    end

    def mod_exp(e, m) = BN.new(@i.pow(BN.__int(e), BN.__int(m)))
    def gcd(o) = BN.new(@i.gcd(BN.__int(o)))
    def <=>(o) = (o.is_a?(BN) || o.is_a?(Integer)) ? @i <=> BN.__int(o) : nil
    alias cmp <=>
    def ==(o) = (o.is_a?(BN) || o.is_a?(Integer)) && @i == BN.__int(o)
    alias === ==
    def eql?(o) = o.is_a?(BN) && @i == o.to_i
    def hash = @i.hash
    def zero? = @i == 0
    def one? = @i == 1
    def odd? = @i.odd?
    def negative? = @i < 0
    def num_bits = @i.abs.bit_length
    def num_bytes = (num_bits + 7) / 8
    def bit_set?(n) = @i[n] == 1
    def prime?(_checks = nil) = @i > 1 && BN.__prime?(@i.to_s(16))
    def coerce(other) = other.is_a?(Integer) ? [other, @i] : raise(TypeError, "Don't know how to coerce")
  end

  module KDF
    def self.pbkdf2_hmac(pass, salt:, iterations:, length:, hash:)
      __pbkdf2(pass.to_str, salt.to_str, iterations, length, hash)
    end
  end

  module PKCS5
    def self.pbkdf2_hmac(pass, salt, iter, keylen, digest)
      KDF.pbkdf2_hmac(pass, salt: salt, iterations: iter, length: keylen, hash: digest)
    end

    def self.pbkdf2_hmac_sha1(pass, salt, iter, keylen)
      KDF.pbkdf2_hmac(pass, salt: salt, iterations: iter, length: keylen, hash: "sha1")
    end
  end

  class Cipher
    def random_key
      key = OpenSSL::Random.random_bytes(key_len)
      self.key = key
    end

    def random_iv
      iv = OpenSSL::Random.random_bytes(iv_len)
      self.iv = iv
    end

    def reset = self

    # Cipher::AES.new(128, :CBC), Cipher::AES256.new(:GCM)
    class AES < Cipher
      def initialize(*args)
        bits, mode = args.size == 1 ? args[0].to_s.split("-", 2) : [args[0].to_s, (args[1] || "CBC").to_s]
        super("AES-#{bits}-#{mode}")
      end
    end
    class AES128 < Cipher
      def initialize(mode = "CBC") = super("AES-128-#{mode}")
    end
    class AES192 < Cipher
      def initialize(mode = "CBC") = super("AES-192-#{mode}")
    end
    class AES256 < Cipher
      def initialize(mode = "CBC") = super("AES-256-#{mode}")
    end
  end

  module PKey
    class PKey
      def initialize = raise(NotImplementedError, "OpenSSL::PKey::PKey can't be instantiated directly")
      def to_pem = private? ? private_to_pem : public_to_pem
      def to_s = to_pem
      def export = to_pem
      def to_der = private? ? private_to_der : public_to_der
      def private_to_pem = __encode(true, false)
      def private_to_der = __encode(true, true)
      def public_to_pem = __encode(false, false)
      def public_to_der = __encode(false, true)
      def inspect = "#<#{self.class.name}: #{oid}>"

      def __int(name)
        hex = __bn(name)
        hex && BN.new(hex, 16)
      end
    end

    class RSA < PKey
      def self.generate(bits, exp = 65537) = new(bits, exp)

      def initialize(arg = nil, pass = nil)
        case arg
        when nil then raise ArgumentError, "wrong number of arguments (given 0, expected 1..2)"
        when Integer
          raise RSAError, "exponent other than 65537 is not supported" if pass && pass != 65537
          __generate("RSA", arg)
        else __parse(arg.to_str, pass, "RSA")
        end
      end

      def n = __int("n")
      def e = __int("e")
      def d = __int("d")
    end

    class EC < PKey
      def self.generate(curve) = new.tap { |k| k.__generate("EC", curve) }

      def initialize(arg = nil, pass = nil)
        return if arg.nil?
        s = arg.to_str
        begin
          __parse(s, pass, "EC")
        rescue ECError
          raise if s.empty? || !s.delete("A-Za-z0-9_.-").empty?
          __generate("EC", s)
        end
      end

      def private_key? = private?
      def public_key? = true
      def group = (name = __group) && Group.new(name)

      # the curve of a key (by name only)
      class Group
        attr_reader :curve_name

        def initialize(name)
          @curve_name = name.to_str
        end

        def ==(other) = other.is_a?(Group) && curve_name == other.curve_name
      end
      def dsa_sign_asn1(data) = sign(nil, data)
    end
  end

  module X509
    class Certificate
      def serial = BN.new(__serial, 16)
      def not_before = (t = __time(0)) && Time.at(t).utc
      def not_after = (t = __time(1)) && Time.at(t).utc
      def to_s = to_pem
      def serial=(n)
        __set_serial(BN.new(n).to_s(16))
      end
      def not_before=(t)
        __set_time(0, t.to_i)
      end

      def not_after=(t)
        __set_time(1, t.to_i)
      end
      def ==(other) = other.is_a?(Certificate) && to_der == other.to_der
      def inspect = "#<#{self.class.name}: subject=#{subject}, issuer=#{issuer}, serial=#{serial}, not_before=#{not_before}, not_after=#{not_after}>"
    end

    class Name
      include Comparable

      # Name.new([["CN", "host"], ["O", "org"]]), Name.parse("/CN=host/O=org") or "CN=host, O=org"
      def initialize(entries = [])
        __init
        entries.each { |field, value, _type| add_entry(field, value) }
      end

      def self.parse(str)
        parts = str.start_with?("/") ? str[1, str.size].split("/") : str.split(",").map(&:strip)
        new(parts.map { |p| p.split("=", 2) })
      end
      def inspect = "#<#{self.class.name} #{to_s}>"
      def eql?(other) = other.is_a?(Name) && (self <=> other) == 0
    end

    class Extension
      def to_s = "#{oid} = #{critical? ? 'critical, ' : ''}#{value}"
      def inspect = "#<#{self.class.name} #{to_s}>"
    end

    class ExtensionFactory
      attr_accessor :issuer_certificate, :subject_certificate, :config

      def initialize(issuer = nil, subject = nil)
        @issuer_certificate = issuer
        @subject_certificate = subject
      end

      def create_extension(oid, value, critical = false)
        Extension.__make(@issuer_certificate, @subject_certificate, oid.to_s, value.to_s, critical ? true : false)
      end

      def create_ext(oid, value, critical = false) = create_extension(oid, value, critical)
    end

    class Store
      attr_reader :error, :error_string

      def verify(cert, chain = nil)
        ok, @error, @error_string = __verify(cert)
        ok
      end
    end
  end
end
