# require "json": CRuby's JSON module for the common calls (mruby has none): JSON.generate / dump /
# pretty_generate, #to_json, JSON.parse / load (its parser is C: src/json_parser.c). Strings are bytes in mnrb: UTF-8
# passes through unchanged, \uXXXX escapes (with surrogate pairs) become UTF-8. Errors: JSON::ParserError
# ("unexpected token at '...'"), JSON::GeneratorError for NaN and Infinity, JSON::NestingError past
# max_nesting (100, as CRuby). Empty containers pretty-print as {} and [] (json 2.7+; CRuby 3.1's
# json 2.6 put a line break inside).
module JSON
  class JSONError < StandardError; end
  class ParserError < JSONError; end
  class GeneratorError < JSONError; end
  class NestingError < ParserError; end

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

  # JSON::Parser is C (src/json_parser.c): symbolize_names, object_class, array_class, max_nesting
  # (100; false or 0 for none), allow_nan, freeze, create_additions
  def self.parse(source, opts = nil)
    Parser.new(source, opts).parse
  end

  def self.parse!(source, opts = nil)
    Parser.new(source, { max_nesting: false, allow_nan: true }.merge(opts || {})).parse
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
end

class Object
  def to_json(*)
    JSON.generate(self)
  end
end
