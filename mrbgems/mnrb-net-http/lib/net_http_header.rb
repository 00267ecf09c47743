# Net::HTTPHeader: the header fields of a request or response, as CRuby's: names are
# case-insensitive, a field may repeat (#[] joins the values with ", ").
module Net
  class ProtocolError < StandardError; end
  class HTTPBadResponse < StandardError; end
  class HTTPHeaderSyntaxError < StandardError; end
  class OpenTimeout < Timeout::Error; end
  class ReadTimeout < Timeout::Error; end

  module HTTPHeader
    def initialize_http_header(initheader)
      @header = {}
      return unless initheader
      initheader.each { |k, v| self[k] = v unless v.nil? }
    end

    def [](key)
      a = @header[key.to_s.downcase] or return nil
      a.join(", ")
    end

    def []=(key, val)
      if val.nil?
        @header.delete(key.to_s.downcase)
      else
        @header[key.to_s.downcase] = [val.to_s]
      end
    end

    def add_field(key, val)
      (@header[key.to_s.downcase] ||= []) << val.to_s
    end

    def get_fields(key)
      a = @header[key.to_s.downcase]
      a && a.dup
    end

    def key?(key)
      @header.key?(key.to_s.downcase)
    end

    def delete(key)
      @header.delete(key.to_s.downcase)
    end

    def each_header
      @header.each { |k, v| yield k, v.join(", ") }
    end
    alias each each_header

    def to_hash
      h = {}
      @header.each { |k, v| h[k] = v.dup }
      h
    end

    def content_length
      v = self["content-length"] or return nil
      n = v.strip
      raise HTTPHeaderSyntaxError, "wrong Content-Length format" unless !n.empty? && n.each_char.all? { |c| ("0".."9").include?(c) }
      n.to_i
    end

    def content_type
      v = self["content-type"] or return nil
      v.split(";", 2)[0].strip
    end

    def chunked?
      v = self["transfer-encoding"]
      !v.nil? && v.downcase.include?("chunked")
    end

    # True if the peer asked to close the connection after this message.
    def connection_close?
      tokens("connection").include?("close")
    end

    def connection_keep_alive?
      tokens("connection").include?("keep-alive")
    end

    private

    def tokens(key)
      (get_fields(key) || []).join(",").split(",").map { |t| t.strip.downcase }
    end
  end
end
