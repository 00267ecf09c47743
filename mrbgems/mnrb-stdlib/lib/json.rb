# require "json": CRuby's JSON module for the common calls (mruby has none): JSON.generate / dump /
# pretty_generate, #to_json, JSON.parse / load (symbolize_names:). Strings are bytes in mnrb: UTF-8
# passes through unchanged, \uXXXX escapes (with surrogate pairs) become UTF-8. Errors: JSON::ParserError
# ("unexpected token at '...'"), JSON::GeneratorError for NaN and Infinity, JSON::NestingError past
# max_nesting (100, as CRuby). Empty containers pretty-print as {} and [] (json 2.7+; CRuby 3.1's
# json 2.6 put a line break inside).
module JSON
  class JSONError < StandardError; end
  class ParserError < JSONError; end
  class GeneratorError < JSONError; end
  class NestingError < ParserError; end

  # (built from Strings: a regexp literal would make its source a Symbol, which this bytecode,
  # shared by every ractor, cannot carry)
  NUMBER = Regexp.new("\\A-?(?:0|[1-9]\\d*)(\\.\\d+)?([eE][-+]?\\d+)?")
  HEX4 = Regexp.new("\\A[0-9a-fA-F]{4}\\z")
  ESCAPE = { '"' => '\\"', "\\" => "\\\\", "\b" => "\\b", "\f" => "\\f", "\n" => "\\n", "\r" => "\\r", "\t" => "\\t" }

  def self.generate(obj, opts = nil)
    Generator.new(opts && opts[:indent], opts && opts[:space]).value(obj, 0)
  end

  def self.dump(obj)
    generate(obj)
  end

  def self.pretty_generate(obj, opts = nil)
    Generator.new((opts && opts[:indent]) || "  ", (opts && opts[:space]) || " ").value(obj, 0)
  end

  def self.parse(source, opts = nil)
    Parser.new(source.to_str, opts && opts[:symbolize_names], (opts && opts[:max_nesting]) || 100).parse
  end

  def self.load(source)
    source.nil? ? nil : parse(source.respond_to?(:read) ? source.read : source)
  end

  def self.escape_string(s)
    out = '"'
    s.to_s.each_char do |c|
      e = ESCAPE[c]
      if e then out << e
      elsif c.ord < 0x20 then out << format("\\u%04x", c.ord)
      else out << c
      end
    end
    out << '"'
  end

  class Generator
    def initialize(indent, space)
      @indent = indent
      @space = space || ""
    end

    def value(obj, depth)
      case obj
      when Hash then object(obj, depth)
      when Array then array(obj, depth)
      when String then JSON.escape_string(obj)
      when Symbol then JSON.escape_string(obj.to_s)
      when nil then "null"
      when true then "true"
      when false then "false"
      when Integer then obj.to_s
      when Float
        raise GeneratorError, "#{obj} not allowed in JSON" if obj.nan? || obj.infinite?
        obj.to_s
      else
        obj.respond_to?(:to_json) && obj.method(:to_json).owner != Object ? obj.to_json : JSON.escape_string(obj.to_s)
      end
    end

    def lines(items, open, close, depth)
      return open + close if items.empty?
      return open + items.join(",") + close unless @indent
      pad = @indent * (depth + 1)
      "#{open}\n#{pad}#{items.join(",\n#{pad}")}\n#{@indent * depth}#{close}"
    end

    def object(h, depth)
      lines(h.map { |k, v| "#{JSON.escape_string(k.to_s)}:#{@space}#{value(v, depth + 1)}" }, "{", "}", depth)
    end

    def array(a, depth)
      lines(a.map { |v| value(v, depth + 1) }, "[", "]", depth)
    end
  end

  class Parser
    def initialize(src, symbolize, max_nesting)
      @s = src
      @i = 0
      @symbolize = symbolize
      @max = max_nesting
    end

    def parse
      skip_space
      v = value(0)
      skip_space
      unexpected if @i < @s.size
      v
    end

    def unexpected
      raise ParserError, "unexpected token at '#{@s[@i, 20]}'"
    end

    def skip_space
      @i += 1 while @i < @s.size && " \t\n\r".include?(@s[@i])
    end

    def value(depth)
      c = @s[@i]
      case c
      when "{" then object(depth + 1)
      when "[" then array(depth + 1)
      when '"' then string
      when "t" then literal("true", true)
      when "f" then literal("false", false)
      when "n" then literal("null", nil)
      else
        number || unexpected
      end
    end

    def literal(word, v)
      unexpected unless @s[@i, word.size] == word
      @i += word.size
      v
    end

    def number
      m = NUMBER.match(@s[@i, @s.size - @i])
      return nil unless m
      @i += m[0].size
      m[1] || m[2] ? m[0].to_f : m[0].to_i
    end

    def nesting(depth)
      raise NestingError, "nesting of #{depth} is too deep" if @max && @max > 0 && depth > @max
    end

    # the elements of an object or array, from its opening character to close, "," between them;
    # the block reads one element
    def sequence(depth, close)
      nesting(depth)
      @i += 1
      skip_space
      if @s[@i] == close
        @i += 1
        return
      end
      while true                # (not loop: a frame less per nesting level)
        skip_space
        yield
        skip_space
        case @s[@i]
        when "," then @i += 1
        when close
          @i += 1
          return
        else unexpected
        end
      end
    end

    def object(depth)
      h = {}
      sequence(depth, "}") do
        unexpected unless @s[@i] == '"'
        k = string
        skip_space
        unexpected unless @s[@i] == ":"
        @i += 1
        skip_space
        h[@symbolize ? k.to_sym : k] = value(depth)
      end
      h
    end

    def array(depth)
      a = []
      sequence(depth, "]") { a << value(depth) }
      a
    end

    def string
      start = @i
      @i += 1
      out = ""
      while @i < @s.size
        c = @s[@i]
        if c == '"'
          @i += 1
          return out
        elsif c == "\\"
          e = @s[@i + 1]
          @i += 2
          case e
          when '"', "\\", "/" then out << e
          when "b" then out << "\b"
          when "f" then out << "\f"
          when "n" then out << "\n"
          when "r" then out << "\r"
          when "t" then out << "\t"
          when "u" then out << unicode
          when nil
            @i = start
            unexpected
          else out << e             # an unknown escape is the character, as CRuby's json 2.6
          end
        elsif c.ord < 0x20
          @i = start
          unexpected
        else
          out << c
          @i += 1
        end
      end
      @i = start
      unexpected
    end

    def hex4
      h = @s[@i, 4]
      unexpected unless h && h.size == 4 && HEX4.match?(h)
      @i += 4
      h.to_i(16)
    end

    def unicode
      cp = hex4
      if cp >= 0xD800 && cp <= 0xDBFF && @s[@i, 2] == "\\u"
        @i += 2
        lo = hex4
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00) if lo >= 0xDC00 && lo <= 0xDFFF
      end
      [cp].pack("U")
    end
  end
end

class Object
  def to_json(*)
    JSON.generate(self)
  end
end
