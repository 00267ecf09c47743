# HTTP/1.1 message framing (RFC 9112) shared by Net::HTTP and MNRB::HTTPServer: header lines,
# and bodies delimited by Content-Length, by chunked transfer coding, or by the end of the
# connection.
module MNRB
  module HTTPWire
    MAX_LINE = 65536

    # A line without its CRLF (or LF); nil at EOF before any byte.
    def self.read_line(io)
      line = io.gets
      return nil if line.nil?
      raise Net::HTTPBadResponse, "header line too long" if line.bytesize > MAX_LINE
      if line.end_with?("\r\n")
        line[0, line.size - 2]
      elsif line.end_with?("\n")
        line[0, line.size - 1]
      else
        line
      end
    end

    # Reads "Name: value" lines up to the empty line into `message` (an HTTPHeader).
    def self.read_fields(io, message)
      while (line = read_line(io))
        return message if line.empty?
        name, value = line.split(":", 2)
        raise Net::HTTPBadResponse, "wrong header line format: #{line.inspect}" if value.nil? || name.empty?
        message.add_field(name.strip, value.strip)
      end
      raise EOFError, "end of file reached"
    end

    # The body announced by `message`'s fields. [body, true if it ran to the end of the stream]
    def self.read_body(io, message)
      return [read_chunked(io), false] if message.chunked?
      length = message.content_length
      return [read_exactly(io, length), false] if length
      [io.read || "", true]
    end

    def self.read_exactly(io, n)
      return "" if n == 0
      data = io.read(n)
      raise EOFError, "end of file reached" if data.nil? || data.bytesize < n
      data
    end

    def self.read_chunked(io)
      body = ""
      loop do
        line = read_line(io) or raise EOFError, "end of file reached"
        size_hex = line.split(";", 2)[0].strip
        raise Net::HTTPBadResponse, "wrong chunk size line: #{line.inspect}" unless hex?(size_hex)
        size = size_hex.to_i(16)
        break if size == 0
        body << read_exactly(io, size)
        read_line(io)   # the CRLF after the chunk
      end
      while (line = read_line(io))   # trailer fields, up to the empty line
        break if line.empty?
      end
      body
    end

    def self.hex?(s)
      !s.empty? && s.each_char.all? { |c| ("0".."9").include?(c) || ("a".."f").include?(c.downcase) }
    end

    # Writes all of `data` with syswrite: no user-space buffering between request and response.
    def self.write(io, data)
      while data.bytesize > 0
        n = io.syswrite(data)
        data = data.byteslice(n, data.bytesize - n)
      end
    end

    # A body as chunks: "size\r\ndata\r\n" for each non-empty piece, then "0\r\n\r\n".
    def self.write_chunked(io, pieces)
      pieces.each do |piece|
        s = piece.to_s
        write(io, "#{s.bytesize.to_s(16)}\r\n#{s}\r\n") unless s.empty?
      end
      write(io, "0\r\n\r\n")
    end
  end
end
