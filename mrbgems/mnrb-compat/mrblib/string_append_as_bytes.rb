# String#append_as_bytes(*objects) (CRuby 3.4): each String's bytes and each Integer's low byte
# appended as they are, with no encoding check or conversion; the receiver keeps its encoding.
class String
  def append_as_bytes(*objects)
    bytes = objects.map do |o|
      case o
      when String then o.b
      when Integer then [o & 0xff].pack("C")
      else
        what = o.nil? ? "nil" : o == true ? "true" : o == false ? "false" : o.class.to_s
        raise TypeError, "wrong argument type #{what} (expected String or Integer)"
      end
    end
    enc = encoding
    force_encoding(Encoding::BINARY)           # FrozenError here for a frozen receiver
    begin
      bytes.each { |b| concat(b) }
    ensure
      force_encoding(enc)
    end
    self
  end
end
