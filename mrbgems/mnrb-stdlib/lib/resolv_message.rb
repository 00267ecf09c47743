# Resolv::DNS::Message and the resource records (part of require "resolv"): RFC 1035's wire
# format. Encoding compresses a name by pointing at the first place the same (case-insensitive)
# suffix was written, as CRuby's encoder does, so messages encode to CRuby's bytes.
class Resolv
  class DNS
    class Message
      @next_id = 0
      def self.next_id = @next_id = (@next_id + 1) & 0xffff

      attr_accessor :id, :qr, :opcode, :aa, :tc, :rd, :ra, :rcode
      attr_reader :question, :answer, :authority, :additional

      def initialize(id = Message.next_id)
        @id = id
        @qr = @opcode = @aa = @tc = @rd = @ra = @rcode = 0
        @question = []
        @answer = []
        @authority = []
        @additional = []
      end

      def ==(other)
        other.is_a?(Message) && header == other.header && @question == other.question &&
          @answer == other.answer && @authority == other.authority && @additional == other.additional
      end

      def header = [@id, @qr, @opcode, @aa, @tc, @rd, @ra, @rcode]

      def add_question(name, typeclass) = @question << [Name.create(name), typeclass]
      def add_answer(name, ttl, data) = @answer << [Name.create(name), ttl, data]
      def add_authority(name, ttl, data) = @authority << [Name.create(name), ttl, data]
      def add_additional(name, ttl, data) = @additional << [Name.create(name), ttl, data]

      def each_question(&block) = @question.each { |name, typeclass| block.call(name, typeclass) }
      def each_answer(&block) = @answer.each { |name, ttl, data| block.call(name, ttl, data) }
      def each_authority(&block) = @authority.each { |name, ttl, data| block.call(name, ttl, data) }
      def each_additional(&block) = @additional.each { |name, ttl, data| block.call(name, ttl, data) }

      def each_resource(&block)
        each_answer(&block)
        each_authority(&block)
        each_additional(&block)
      end

      def encode
        w = Writer.new
        flags = (@qr << 15) | (@opcode << 11) | (@aa << 10) | (@tc << 9) | (@rd << 8) | (@ra << 7) | @rcode
        w.put_pack("nnnnnn", @id, flags, @question.size, @answer.size, @authority.size, @additional.size)
        @question.each do |name, typeclass|
          w.put_name(name)
          w.put_pack("nn", typeclass::TypeValue, typeclass::ClassValue)
        end
        [@answer, @authority, @additional].each do |section|
          section.each do |name, ttl, data|
            w.put_name(name)
            w.put_pack("nnN", data.class::TypeValue, data.class::ClassValue, ttl)
            w.put_length16 { data.encode_rdata(w) }
          end
        end
        w.data
      end

      def self.decode(bytes)
        r = Reader.new(bytes)
        msg = new(0)
        id, flags, qd, an, ns, ar = r.get_unpack("nnnnnn", 12)
        msg.id = id
        msg.qr = (flags >> 15) & 1
        msg.opcode = (flags >> 11) & 15
        msg.aa = (flags >> 10) & 1
        msg.tc = (flags >> 9) & 1
        msg.rd = (flags >> 8) & 1
        msg.ra = (flags >> 7) & 1
        msg.rcode = flags & 15
        qd.times do
          name = r.get_name
          type, klass = r.get_unpack("nn", 4)
          msg.question << [name, Resource.get_class(type, klass)]
        end
        [[an, msg.answer], [ns, msg.authority], [ar, msg.additional]].each do |count, section|
          count.times { section << r.get_rr }
        end
        msg
      end

      # The encoder: the bytes so far and where each name suffix was first written.
      class Writer
        attr_reader :data

        def initialize
          @data = "".b
          @names = {}
        end

        def put_bytes(s) = @data << s.b
        def put_pack(fmt, *v) = @data << v.pack(fmt)

        def put_string(s)
          raise EncodeError, "string too long: #{s.bytesize} bytes" if s.bytesize > 255
          put_pack("C", s.bytesize)
          put_bytes(s)
        end

        def put_length16
          at = @data.bytesize
          put_pack("n", 0)
          yield
          len = @data.bytesize - at - 2
          @data[at, 2] = [len].pack("n")
        end

        def put_name(name, compress: true)
          labels = Name.create(name).to_a
          labels.each_index do |i|
            key = labels[i..].map(&:downcase).join(".")
            if compress && (ptr = @names[key])
              put_pack("n", 0xc000 | ptr)
              return
            end
            @names[key] = @data.bytesize if @data.bytesize < 0x4000
            put_string(labels[i].to_s)
          end
          put_pack("C", 0)
        end
      end

      # The decoder: a position in the message; every read checks the bounds.
      class Reader
        def initialize(data)
          @data = data.b
          @pos = 0
        end

        def need(n)
          raise DecodeError, "limit exceeded" if @pos + n > @data.bytesize
        end

        def get_bytes(n)
          need(n)
          s = @data.byteslice(@pos, n)
          @pos += n
          s
        end

        def get_unpack(fmt, n) = get_bytes(n).unpack(fmt)
        def get_string = get_bytes(get_unpack("C", 1)[0])

        def get_string_list
          list = []
          list << get_string while @pos < @limit
          list
        end

        # a name at the current position, following compression pointers (each must point back)
        def get_name
          labels = []
          pos = @pos
          jumped = false
          loop do
            raise DecodeError, "limit exceeded" if pos >= @data.bytesize
            len = @data.getbyte(pos)
            if len & 0xc0 == 0xc0
              raise DecodeError, "limit exceeded" if pos + 2 > @data.bytesize
              target = ((len & 0x3f) << 8) | @data.getbyte(pos + 1)
              @pos = pos + 2 unless jumped
              raise DecodeError, "bad label pointer" if target >= pos
              jumped = true
              pos = target
            elsif len == 0
              @pos = pos + 1 unless jumped
              return Name.new(labels)
            else
              raise DecodeError, "limit exceeded" if pos + 1 + len > @data.bytesize
              labels << Label::Str.new(@data.byteslice(pos + 1, len))
              pos += 1 + len
            end
          end
        end

        def get_rr
          name = get_name
          type, klass, ttl, len = get_unpack("nnNn", 10)
          need(len)
          outer = @limit
          @limit = @pos + len
          data = Resource.get_class(type, klass).decode_rdata(self)
          raise DecodeError, "junk exists" unless @pos == @limit
          @limit = outer
          data.instance_variable_set(:@ttl, ttl)
          [name, ttl, data]
        end

        def rest = get_bytes(@limit - @pos)
      end
    end

    class Query
      def encode_rdata(_msg) = raise(EncodeError, "#{self.class} is query.")
      def self.decode_rdata(_msg) = raise(DecodeError, "#{self} is query.")
    end

    # A resource record's data; == compares the class and the fields (not the TTL).
    class Resource < Query
      attr_reader :ttl
      ClassHash = {}

      def self.get_class(type, klass)
        ClassHash[[type, klass]] || Generic.create(type, klass)
      end

      def fields = instance_variables.reject { |v| v == :@ttl }.sort.map { |v| instance_variable_get(v) }
      def ==(other) = other.class == self.class && other.fields == fields
      alias eql? ==
      def hash = [self.class, fields].hash

      # an unknown type: its rdata as bytes
      class Generic < Resource
        attr_reader :data

        def self.create(type, klass)
          c = Class.new(Generic)
          c.const_set(:TypeValue, type)
          c.const_set(:ClassValue, klass)
          ClassHash[[type, klass]] = c
        end

        def initialize(data)
          @data = data
        end

        def encode_rdata(msg) = msg.put_bytes(@data)
        def self.decode_rdata(msg) = new(msg.rest)
      end

      class DomainName < Resource
        attr_reader :name

        def initialize(name)
          @name = name
        end

        def encode_rdata(msg) = msg.put_name(@name)
        def self.decode_rdata(msg) = new(msg.get_name)
      end

      class NS < DomainName; TypeValue = 2; end
      class CNAME < DomainName; TypeValue = 5; end
      class PTR < DomainName; TypeValue = 12; end

      class SOA < Resource
        TypeValue = 6
        attr_reader :mname, :rname, :serial, :refresh, :retry, :expire, :minimum

        def initialize(mname, rname, serial, refresh, retry_, expire, minimum)
          @mname = mname
          @rname = rname
          @serial = serial
          @refresh = refresh
          @retry = retry_
          @expire = expire
          @minimum = minimum
        end

        def encode_rdata(msg)
          msg.put_name(@mname)
          msg.put_name(@rname)
          msg.put_pack("NNNNN", @serial, @refresh, @retry, @expire, @minimum)
        end

        def self.decode_rdata(msg) = new(msg.get_name, msg.get_name, *msg.get_unpack("NNNNN", 20))
      end

      class HINFO < Resource
        TypeValue = 13
        attr_reader :cpu, :os

        def initialize(cpu, os)
          @cpu = cpu
          @os = os
        end

        def encode_rdata(msg)
          msg.put_string(@cpu)
          msg.put_string(@os)
        end

        def self.decode_rdata(msg) = new(msg.get_string, msg.get_string)
      end

      class MX < Resource
        TypeValue = 15
        attr_reader :preference, :exchange

        def initialize(preference, exchange)
          @preference = preference
          @exchange = exchange
        end

        def encode_rdata(msg)
          msg.put_pack("n", @preference)
          msg.put_name(@exchange)
        end

        def self.decode_rdata(msg) = new(msg.get_unpack("n", 2)[0], msg.get_name)
      end

      class TXT < Resource
        TypeValue = 16
        attr_reader :strings

        def initialize(first_string, *rest_strings)
          @strings = [first_string, *rest_strings]
        end

        def data = @strings.join
        def encode_rdata(msg) = @strings.each { |s| msg.put_string(s) }
        def self.decode_rdata(msg) = new(*msg.get_string_list)
      end

      class ANY < Query; TypeValue = 255; end

      ClassInsensitiveTypes = [NS, CNAME, SOA, PTR, HINFO, MX, TXT, ANY]

      # The Internet class: its own subclasses of the class-insensitive types, and A, AAAA, SRV.
      module IN
        ClassValue = 1

        ClassInsensitiveTypes.each do |s|
          c = Class.new(s)
          c.const_set(:TypeValue, s::TypeValue)
          c.const_set(:ClassValue, ClassValue)
          ClassHash[[s::TypeValue, ClassValue]] = c
          const_set(s.name.split("::").last, c)
        end

        class A < Resource
          TypeValue = 1
          ClassValue = IN::ClassValue
          ClassHash[[TypeValue, ClassValue]] = self
          attr_reader :address

          def initialize(address)
            @address = IPv4.create(address)
          end

          def encode_rdata(msg) = msg.put_bytes(@address.address)
          def self.decode_rdata(msg) = new(IPv4.new(msg.get_bytes(4)))
        end

        class AAAA < Resource
          TypeValue = 28
          ClassValue = IN::ClassValue
          ClassHash[[TypeValue, ClassValue]] = self
          attr_reader :address

          def initialize(address)
            @address = IPv6.create(address)
          end

          def encode_rdata(msg) = msg.put_bytes(@address.address)
          def self.decode_rdata(msg) = new(IPv6.new(msg.get_bytes(16)))
        end

        class SRV < Resource
          TypeValue = 33
          ClassValue = IN::ClassValue
          ClassHash[[TypeValue, ClassValue]] = self
          attr_reader :priority, :weight, :port, :target

          def initialize(priority, weight, port, target)
            @priority = priority.to_int
            @weight = weight.to_int
            @port = port.to_int
            @target = Name.create(target)
          end

          def encode_rdata(msg)
            msg.put_pack("nnn", @priority, @weight, @port)
            msg.put_name(@target, compress: false)
          end

          def self.decode_rdata(msg) = new(*msg.get_unpack("nnn", 6), msg.get_name)
        end
      end
    end
  end
end
