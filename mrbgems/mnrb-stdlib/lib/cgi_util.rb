# cgi/util: CRuby's CGI::Util (`require "cgi/util"`, also loaded by `require "cgi"`): URL and HTML
# escaping as module functions of CGI and as instance methods of CGI::Util.
#
# Escaping works on bytes (a multibyte character becomes its %XX bytes) and keeps the argument's
# encoding; unescaping gives a String in the encoding asked for (UTF-8 by default), as CRuby's.

class CGI
  # CRuby's C accelerator for the escapes; here the escapes are the Ruby methods below.
  module Escape
  end

  module Util
    # the bytes escapeURIComponent (and, but for the space, escape) leave as they are
    # (lib/ code makes its patterns once with Regexp.new: a literal's source would be interned per state)
    URI_UNSAFE = Regexp.new('[^a-zA-Z0-9_.\-~]', Regexp::NOENCODING)      # /[^a-zA-Z0-9_.\-~]/n
    FORM_UNSAFE = Regexp.new('[^a-zA-Z0-9_.\-~ ]', Regexp::NOENCODING)    # /[^a-zA-Z0-9_.\-~ ]/n
    PERCENT = Regexp.new('%([0-9a-fA-F]{2})', Regexp::NOENCODING)         # /%([0-9a-fA-F]{2})/n
    HTML_SPECIAL = Regexp.new(%q([&"'<>]))                                  # /[&"'<>]/
    HTML_REFERENCE = Regexp.new('&(amp|quot|apos|gt|lt|#[0-9]+|#[xX][0-9A-Fa-f]+);')
    TAG_OR_TEXT = Regexp.new('<[^>]*>|[^<]+')                              # /<[^>]*>|[^<]+/
    TAG_NAME = Regexp.new('\A</?\s*([\w:-]+)')                              # /\A<\/?\s*([\w:-]+)/
    private_constant :URI_UNSAFE, :FORM_UNSAFE, :PERCENT, :HTML_SPECIAL, :HTML_REFERENCE, :TAG_OR_TEXT, :TAG_NAME

    HTML_ESCAPES = { "&" => "&amp;", '"' => "&quot;", "'" => "&#39;", "<" => "&lt;", ">" => "&gt;" }.freeze
    HTML_NAMED = { "amp" => "&", "quot" => '"', "apos" => "'", "lt" => "<", "gt" => ">" }.freeze
    private_constant :HTML_ESCAPES, :HTML_NAMED

    # "a b&c" -> "a+b%26c" (application/x-www-form-urlencoded)
    def escape(string)
      string = Util.__mnrb_cgi_string(string)
      Util.__mnrb_cgi_percent(string.b, FORM_UNSAFE).tr(" ", "+").force_encoding(string.encoding)
    end

    # "a+b%26c" -> "a b&c"
    def unescape(string, encoding = "UTF-8")
      Util.__mnrb_cgi_unpercent(Util.__mnrb_cgi_string(string).b.tr("+", " "), encoding)
    end

    # "a b" -> "a%20b" (RFC 3986: a space is %20)
    def escapeURIComponent(string)
      string = Util.__mnrb_cgi_string(string)
      Util.__mnrb_cgi_percent(string.b, URI_UNSAFE).force_encoding(string.encoding)
    end

    # "a+b%20c" -> "a+b c": a "+" stays
    def unescapeURIComponent(string, encoding = "UTF-8")
      Util.__mnrb_cgi_unpercent(Util.__mnrb_cgi_string(string).b, encoding)
    end

    # "<a href='x'>" -> "&lt;a href=&#39;x&#39;&gt;"
    def escapeHTML(string)
      Util.__mnrb_cgi_string(string).gsub(HTML_SPECIAL) { |c| HTML_ESCAPES[c] }
    end

    # &amp; &quot; &apos; &lt; &gt; and numeric references (&#65; &#x41;); any other "&...;" stays
    def unescapeHTML(string)
      string = Util.__mnrb_cgi_string(string)
      string.gsub(HTML_REFERENCE) do
        name = Regexp.last_match(1)
        if name.start_with?("#")
          code = name[1] == "x" || name[1] == "X" ? name[2..].to_i(16) : name[1..].to_i
          code <= 0x10FFFF && !(0xD800..0xDFFF).cover?(code) ? code.chr(Encoding::UTF_8) : "&#{name};"
        else
          HTML_NAMED[name]
        end
      end
    end

    # Escapes the whole of each tag named in +elements+ (case-insensitive), and nothing else.
    def escapeElement(string, *elements)
      Util.__mnrb_cgi_tags(string, elements, "<", ">") { |tag| escapeHTML(tag) }
    end

    # Unescapes the escaped tags named in +elements+.
    def unescapeElement(string, *elements)
      Util.__mnrb_cgi_tags(string, elements, "&lt;", "&gt;") { |tag| unescapeHTML(tag) }
    end

    # "Thu, 01 Jan 1970 00:00:00 GMT"
    def rfc1123_date(time)
      time.dup.gmtime.strftime("%a, %d %b %Y %H:%M:%S GMT")
    end

    # Each tag on its own line, indented by +shift+ for each open element around it.
    def pretty(string, shift = "  ")
      tokens = string.scan(TAG_OR_TEXT)
      depth = 0
      out = +""
      tokens.each_with_index do |token, i|
        name = token[TAG_NAME, 1]
        if token.start_with?("</")
          depth -= 1 if depth > 0
          out << shift * depth << token << "\n"
        else
          out << shift * depth << token << "\n"
          close_tag = name && Regexp.new("\\A</\\s*#{Regexp.escape(name)}\\s*>", Regexp::IGNORECASE)
          closes = close_tag && !token.end_with?("/>") && tokens[(i + 1)..].any? { |t| close_tag.match?(t) }
          depth += 1 if closes
        end
      end
      out
    end

    alias escape_html escapeHTML
    alias h escapeHTML
    alias unescape_html unescapeHTML
    alias escape_uri_component escapeURIComponent
    alias unescape_uri_component unescapeURIComponent
    alias escape_element escapeElement
    alias unescape_element unescapeElement

    # helpers, not part of CGI::Util's interface (__mnrb_ names are hidden from methods)
    def self.__mnrb_cgi_string(obj)
      return obj if obj.is_a?(String)
      return obj.to_str if obj.respond_to?(:to_str)
      name = obj.nil? ? "nil" : obj == true ? "true" : obj == false ? "false" : obj.class.to_s
      raise TypeError, "no implicit conversion of #{name} into String"
    end

    # each tag named in elements (opened and closed by open and close) replaced by the block's value
    def self.__mnrb_cgi_tags(string, elements, open, close, &block)
      elements = elements.flatten
      return string if elements.empty?
      tags = Regexp.new("#{open}/?(?:#{elements.join("|")})(?!\\w)(?:.)*?#{close}", Regexp::IGNORECASE | Regexp::MULTILINE)
      string.gsub(tags, &block)
    end

    def self.__mnrb_cgi_percent(bytes, unsafe)
      bytes.gsub(unsafe) { |b| format("%%%02X", b.getbyte(0)) }
    end

    def self.__mnrb_cgi_unpercent(bytes, encoding)
      bytes.gsub(PERCENT) { |m| m[1, 2].hex.chr }.force_encoding(encoding)
    end
  end

  extend Util
end
