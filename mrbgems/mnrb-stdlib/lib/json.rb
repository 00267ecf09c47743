# require "json": CRuby's JSON module for the common calls (mruby has none): JSON.generate / dump /
# pretty_generate, #to_json, JSON.parse / load (parser and generator in C: src/json_*.c). Strings are bytes in mnrb: UTF-8
# passes through unchanged, \uXXXX escapes (with surrogate pairs) become UTF-8. Errors: JSON::ParserError
# ("unexpected token at '...'"), JSON::GeneratorError for NaN and Infinity, JSON::NestingError past
# max_nesting (100, as CRuby). Empty containers pretty-print as {} and [] (json 2.7+; CRuby 3.1's
# json 2.6 put a line break inside).
module JSON
  class JSONError < StandardError; end
  class ParserError < JSONError; end
  class GeneratorError < JSONError; end
  class NestingError < ParserError; end

  # Generation is C (src/json_generator.c), with CRuby's State options: indent, space,
  # space_before, object_nl, array_nl, allow_nan, max_nesting (100; false or 0 for none).
  def self.generate(obj, opts = nil)
    o = opts ? opts.to_h : {}
    max = o.key?(:max_nesting) ? (o[:max_nesting] || 0) : 100
    __generate(obj, o[:indent], o[:space], o[:space_before], o[:object_nl], o[:array_nl], !!o[:allow_nan], max)
  end

  def self.dump(obj)
    generate(obj)
  end

  def self.pretty_generate(obj, opts = nil)
    generate(obj, { indent: "  ", space: " ", object_nl: "\n", array_nl: "\n" }.merge(opts ? opts.to_h : {}))
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
end

class Object
  def to_json(*)
    JSON.generate(self)
  end
end
