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

  # Generation is C (src/json_generator.c) driven by a State with CRuby's options: indent, space,
  # space_before, object_nl, array_nl, allow_nan, max_nesting (100; false or 0 for none). An
  # object's own to_json gets the State, at the depth it is written at, so that a Hash or Array it
  # hands the State on to comes out laid out in place (pretty_generate of such objects).
  class State
    attr_accessor :indent, :space, :space_before, :object_nl, :array_nl, :max_nesting, :depth

    def initialize(opts = nil)
      o = opts ? opts.to_h : {}
      @indent = o[:indent] || ""
      @space = o[:space] || ""
      @space_before = o[:space_before] || ""
      @object_nl = o[:object_nl] || ""
      @array_nl = o[:array_nl] || ""
      @allow_nan = o[:allow_nan] ? true : false
      @max_nesting = o.key?(:max_nesting) ? (o[:max_nesting] || 0) : 100
      @depth = o[:depth] || 0
    end

    def allow_nan? = @allow_nan

    def generate(obj)
      JSON.__generate(obj, @indent, @space, @space_before, @object_nl, @array_nl, @allow_nan, @max_nesting, @depth, self)
    end

    def to_h
      { indent: @indent, space: @space, space_before: @space_before, object_nl: @object_nl, array_nl: @array_nl,
        allow_nan: @allow_nan, max_nesting: @max_nesting, depth: @depth }
    end
  end

  def self.generate(obj, opts = nil)
    (opts.is_a?(State) ? opts : State.new(opts)).generate(obj)
  end

  def self.pretty_generate(obj, opts = nil)
    generate(obj, { indent: "  ", space: " ", object_nl: "\n", array_nl: "\n" }.merge(opts ? opts.to_h : {}))
  end

  # JSON.dump(obj, io = nil, limit = nil): no nesting limit but `limit` (ArgumentError past it),
  # NaN allowed; written to io when given (which is returned)
  def self.dump(obj, io = nil, limit = nil)
    if io.is_a?(Integer)
      limit = io
      io = nil
    end
    begin
      s = generate(obj, { max_nesting: limit || false, allow_nan: true })
    rescue NestingError
      raise ArgumentError, "exceed depth limit"
    end
    return s unless io
    io.write(s)
    io
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

  # JSON.load(source, proc = nil, options = nil): a String or IO; nil or blank gives nil; NaN and
  # any nesting allowed; proc called on every value, innermost first (keys too), as CRuby
  # (create_additions on by default, as CRuby's load_default_options)
  def self.load(source, proc = nil, options = nil)
    source = source.read if source.respond_to?(:read)
    source = source.to_str if source.respond_to?(:to_str)
    return nil if source.nil? || source.empty?
    result = parse(source, { max_nesting: false, allow_nan: true, create_additions: true }.merge(options ? options.to_h : {}))
    load_visit(result, proc) if proc
    result
  end

  def self.load_visit(v, proc)
    case v
    when Array then v.each { |x| load_visit(x, proc) }
    when Hash then v.each { |k, x| load_visit(k, proc); load_visit(x, proc) }
    end
    proc.call(v)
  end

  def self.load_file(path, opts = nil)
    parse(File.read(path), opts)
  end

  # The key naming an object's class in the JSON of json/add/* ("json_class").
  def self.create_id = @create_id || "json_class"

  def self.create_id=(name)
    @create_id = name
  end

  # "A::B" -> A::B, ArgumentError when it does not name a constant
  def self.deep_const_get(path)
    path.to_s.split("::").inject(Object) { |mod, name| name.empty? ? mod : mod.const_get(name) }
  rescue NameError => e
    raise ArgumentError, "can't get const #{path}: #{e.message}"
  end

  # the parser's create_additions: a Hash naming a json_creatable? class becomes its json_create
  def self.__addition(hash)
    name = hash[create_id]
    return hash unless name.is_a?(String)
    klass = deep_const_get(name)
    klass.respond_to?(:json_creatable?) && klass.json_creatable? ? klass.json_create(hash) : hash
  end
end

class Class
  def json_creatable? = respond_to?(:json_create)
end

# {"json_class": "String", "raw": [bytes]}, as CRuby's generator defines it
class String
  def self.json_create(object) = object["raw"].pack("C*")
end

class Object
  def to_json(state = nil, *)
    JSON.generate(self, state)
  end
end
