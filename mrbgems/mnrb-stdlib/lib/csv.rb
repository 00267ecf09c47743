# require "csv": CSV as CRuby's csv library (3.x) has it. A CSV object wraps a String or an IO
# and reads rows from it (csv_parser.rb) and writes rows to it; with headers, rows are CSV::Row
# (csv_row.rb) and a whole read is a CSV::Table (csv_table.rb). Options as CRuby's: col_sep,
# row_sep (:auto finds "\r\n", "\n" or "\r" in the data; "\n" when writing), quote_char, headers
# (true: the first row; an Array; a String read as a row), return_headers, write_headers,
# header_converters, converters (names from CSV::Converters, callables taking the field and
# optionally a CSV::FieldInfo), skip_blanks, skip_lines, liberal_parsing, strip, nil_value,
# empty_value, force_quotes, quote_empty, write_converters, write_nil_value, write_empty_value.
# Not there: field_size_limit/max_field_size (accepted, not enforced), encodings other than the
# data's own (encoding: is accepted and ignored, a BOM is not removed), CSV.instance, CSV.filter.
class CSV
  include Enumerable

  VERSION = "3.2.8".freeze

  FieldInfo = Struct.new(:index, :line, :header, :quoted?)

  DATE_MATCHER = Regexp.new('\A(?:(?:\w+,?\s+)?\w+\s+\d{1,2},?\s+\d{2,4}|\d{4}-\d{2}-\d{2})\z').freeze
  DATE_TIME_MATCHER = Regexp.new('\A(?:(?:\w+,?\s+)?\w+\s+\d{1,2}\s+\d{1,2}:\d{1,2}:\d{1,2},?\s+\d{2,4}|\d{4}-\d{2}-\d{2}\s\d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}(?:[T\s]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?(?:[+-]\d{2}(?::\d{2})|Z)?)?)?)\z').freeze
  private_constant :DATE_MATCHER, :DATE_TIME_MATCHER if respond_to?(:private_constant, true)

  # The named converters. CSV.new resolves the built-in names without reading these constants
  # (their lambdas are not shareable, so a non-main Ractor may not read them); names a program
  # adds here are looked up in them.
  Converters = {
    integer: ->(f) { CSV.__convert__(:integer, f) },
    float: ->(f) { CSV.__convert__(:float, f) },
    numeric: [:integer, :float],
    date: ->(f) { CSV.__convert__(:date, f) },
    date_time: ->(f) { CSV.__convert__(:date_time, f) },
    all: [:date_time, :numeric],
  }

  HeaderConverters = {
    downcase: ->(h) { CSV.__convert__(:downcase, h) },
    symbol: ->(h) { CSV.__convert__(:symbol, h) },
    symbol_raw: ->(h) { CSV.__convert__(:symbol_raw, h) },
  }

  BUILTIN_CONVERTERS = {
    integer: [:integer], float: [:float], numeric: [:integer, :float], date: [:date],
    date_time: [:date_time], all: [:date_time, :integer, :float],
  }.each_value(&:freeze).freeze
  BUILTIN_HEADER_CONVERTERS = { downcase: [:downcase], symbol: [:symbol], symbol_raw: [:symbol_raw] }.each_value(&:freeze).freeze
  SYMBOL_DROP = Regexp.new('[^\s\w]+').freeze
  SYMBOL_SPACE = Regexp.new('\s+').freeze
  private_constant :BUILTIN_CONVERTERS, :BUILTIN_HEADER_CONVERTERS, :SYMBOL_DROP, :SYMBOL_SPACE if respond_to?(:private_constant, true)

  # A built-in converter applied to f (a String): the converted value, or f when it does not fit.
  def self.__convert__(name, f)
    case name
    when :integer then (Integer(f) rescue f)
    when :float then (Float(f) rescue f)
    when :date, :date_time
      begin
        require "date"
        if name == :date
          DATE_MATCHER.match(f) ? Date.parse(f) : f
        else
          DATE_TIME_MATCHER.match(f) ? DateTime.parse(f) : f
        end
      rescue ArgumentError
        f
      end
    when :downcase then f.downcase
    when :symbol then f.downcase.gsub(SYMBOL_DROP, "").strip.gsub(SYMBOL_SPACE, "_").to_sym
    when :symbol_raw then f.to_sym
    end
  end

  DEFAULT_OPTIONS = {
    col_sep: ",", row_sep: :auto, quote_char: '"', field_size_limit: nil, max_field_size: nil,
    converters: nil, unconverted_fields: nil, headers: false, return_headers: false,
    header_converters: nil, skip_blanks: false, force_quotes: false, skip_lines: nil,
    liberal_parsing: false, quote_empty: true, write_headers: nil, write_converters: nil,
    write_nil_value: nil, write_empty_value: "", strip: false, nil_value: nil, empty_value: "",
  }.each_value { |v| v.freeze }.freeze

  class << self
    def parse(str, **options, &block)
      csv = new(str, **options)
      return csv.read unless block
      csv.each(&block)
      nil
    end

    def parse_line(line, **options)
      new(line, **options).shift
    end

    def open(path, mode = "r", **options)
      options.delete(:encoding)
      file = File.open(path, mode.to_s.sub(Regexp.new(':.*\z'), ""))
      csv = new(file, **options)
      return csv unless block_given?
      begin
        yield csv
      ensure
        csv.close
      end
    end

    def read(path, **options)
      open(path, **options) { |csv| csv.read }
    end
    alias readlines read

    def table(path, **options)
      read(path, **{ headers: true, converters: :numeric, header_converters: :symbol }.merge(options))
    end

    def foreach(path, mode = "r", **options, &block)
      return to_enum(:foreach, path, mode, **options) unless block
      open(path, mode, **options) { |csv| csv.each(&block) }
    end

    def generate(str = nil, **options)
      str = str ? str : +""
      csv = new(str, **options)
      yield csv
      str
    end

    def generate_line(row, **options)
      s = +""
      new(s, **options) << row
      s
    end

    def generate_lines(rows, **options)
      generate(**options) { |csv| rows.each { |r| csv << r } }
    end
  end

  attr_reader :col_sep, :quote_char, :skip_lines, :converters, :header_converters

  def initialize(data = +"", col_sep: ",", row_sep: :auto, quote_char: '"', field_size_limit: nil,
                 max_field_size: nil, converters: nil, unconverted_fields: nil, headers: false,
                 return_headers: false, write_headers: nil, header_converters: nil,
                 skip_blanks: false, force_quotes: false, skip_lines: nil, liberal_parsing: false,
                 quote_empty: true, write_converters: nil, write_nil_value: nil,
                 write_empty_value: "", strip: false, nil_value: nil, empty_value: "", encoding: nil)
    raise ArgumentError, "Cannot parse nil as CSV" if data.nil?
    @io = data
    @col_sep = col_sep.to_s
    @row_sep = row_sep
    @quote_char = quote_char.to_s
    raise ArgumentError, ":col_sep must be 1 or more characters: #{col_sep.inspect}" if @col_sep.empty?
    raise ArgumentError, ":quote_char has to be nil or a single character String" if @quote_char.size != 1
    @converters = []
    add_converters(@converters, BUILTIN_CONVERTERS, :Converters, converters)
    @header_converters = []
    add_converters(@header_converters, BUILTIN_HEADER_CONVERTERS, :HeaderConverters, header_converters)
    @write_converters = write_converters ? Array(write_converters) : []
    @use_headers = headers
    @headers = nil
    @return_headers = return_headers
    @write_headers = write_headers
    @skip_blanks = skip_blanks
    @force_quotes = force_quotes
    @skip_lines = skip_lines.is_a?(String) ? Regexp.new(Regexp.escape(skip_lines)) : skip_lines
    if @skip_lines && !@skip_lines.respond_to?(:match)
      raise ArgumentError, ":skip_lines has to respond to #match: #{skip_lines.inspect}"
    end
    @liberal_parsing = liberal_parsing
    @quote_empty = quote_empty
    @write_nil_value = write_nil_value
    @write_empty_value = write_empty_value
    @strip = strip
    @nil_value = nil_value
    @empty_value = empty_value
    @parser = nil
    @pending_row = nil
    @header_row_returned = false
    @wrote_headers = false
    @lineno_written = 0
    @closed = false
    init_headers(headers)
  end

  def init_headers(headers)
    case headers
    when Array
      @headers = convert_headers(headers)
    when String
      @headers = convert_headers(self.class.parse_line(headers, col_sep: @col_sep, quote_char: @quote_char) || [])
    end
  end
  private :init_headers

  # Appends to list the callables (or built-in names, as Symbols) that given names.
  def add_converters(list, builtin, table, given)
    Array(given).each do |c|
      if c.respond_to?(:call)
        list << c
      elsif (names = builtin[c.to_sym])
        list.concat(names)
      else
        conv = CSV.const_get(table)[c.to_sym] or raise ArgumentError, "unknown converter name: #{c.inspect}"
        conv.is_a?(Array) ? add_converters(list, builtin, table, conv) : list << conv
      end
    end
  end
  private :add_converters

  def convert(name = nil, &block)
    add_converters(@converters, BUILTIN_CONVERTERS, :Converters, name ? [name] : [block])
  end

  def header_convert(name = nil, &block)
    add_converters(@header_converters, BUILTIN_HEADER_CONVERTERS, :HeaderConverters, name ? [name] : [block])
  end

  def row_sep
    @row_sep == :auto ? parser.row_sep : @row_sep
  end

  def parser
    @parser ||= Parser.new(@io, @col_sep, @row_sep, @quote_char, @liberal_parsing, @strip)
  end
  private :parser

  def headers
    @headers || (@use_headers ? true : nil)
  end

  def header_row?
    @use_headers && @headers.nil?
  end

  def return_headers?; @return_headers; end
  def write_headers?; @write_headers; end
  def skip_blanks?; @skip_blanks; end
  def force_quotes?; @force_quotes; end
  def liberal_parsing?; @liberal_parsing; end

  def lineno
    @parser ? @parser.lineno + @lineno_written : @lineno_written
  end

  def line
    @parser && @parser.line
  end

  # --- reading ---

  # The next row (an Array, or a CSV::Row with headers), nil at the end of the data.
  def shift
    if @pending_row
      row = @pending_row
      @pending_row = nil
      return row
    end
    loop do
      fields, quoted = parser.shift
      return nil unless fields
      next if @skip_lines && @skip_lines.match(parser.line.chomp(row_sep))
      next if fields.empty? && @skip_blanks
      fields = apply_values(fields, quoted)
      unless @use_headers
        return convert_fields(fields, quoted, nil)
      end
      if @headers.nil?
        @headers = convert_headers(fields)
        @header_row_returned = true
        next unless @return_headers
        return Row.new(@headers, fields, true)
      end
      row = Row.new(@headers, convert_fields(fields, quoted, @headers))
      if @return_headers && !@header_row_returned
        @header_row_returned = true
        @pending_row = row
        return Row.new(@headers, @headers, true)
      end
      return row
    end
  end
  alias gets shift
  alias readline shift

  def each(&block)
    return to_enum(:each) unless block
    while (row = shift)
      yield row
    end
    self
  end

  def read
    rows = []
    each { |r| rows << r }
    if @use_headers
      Table.new(rows, headers: @headers.is_a?(Array) ? @headers : [])
    else
      rows
    end
  end
  alias readlines read

  def rewind
    @io.rewind if @io.respond_to?(:rewind)
    @parser = nil
    @pending_row = nil
    @headers = nil if @use_headers == true
    @header_row_returned = false
  end

  def eof?
    return @io.eof? if @io.respond_to?(:eof?)
    parser.instance_variable_get(:@pos) >= @io.size
  end
  alias eof eof?

  def apply_values(fields, quoted)
    return fields if @nil_value.nil? && @empty_value == ""
    fields.each_with_index.map do |f, i|
      if f.nil? then @nil_value
      elsif f.empty? && (quoted.nil? || quoted[i]) then @empty_value
      else f
      end
    end
  end
  private :apply_values

  def convert_fields(fields, quoted, headers)
    return fields if @converters.empty?
    fields.each_with_index.map do |f, i|
      next f if f.nil?
      @converters.each do |c|
        break unless f.is_a?(String)
        f = if c.is_a?(Symbol)
              CSV.__convert__(c, f)
            elsif c.arity == 1
              c.call(f)
            else
              c.call(f, FieldInfo.new(i, parser.lineno, headers && headers[i], quoted ? quoted[i] : false))
            end
      end
      f
    end
  end
  private :convert_fields

  def convert_headers(fields)
    fields.map do |h|
      next h unless h.is_a?(String)
      @header_converters.each do |c|
        break unless h.is_a?(String)
        h = if c.is_a?(Symbol) then CSV.__convert__(c, h)
            elsif c.arity == 1 then c.call(h)
            else c.call(h, FieldInfo.new(0, 1, nil, false))
            end
      end
      h.is_a?(String) ? h.freeze : h
    end
  end
  private :convert_headers

  # --- writing ---

  def <<(row)
    if !@wrote_headers && @write_headers && @headers.nil? && row.is_a?(Row)
      @headers = row.headers
    end
    if !@wrote_headers && @write_headers && @headers.is_a?(Array)
      @wrote_headers = true
      write_line(@headers)
    end
    @wrote_headers = true
    fields = case row
             when Row then row.fields
             when Hash
               hs = @headers.is_a?(Array) ? @headers : row.keys
               hs.map { |h| row[h] }
             else row
             end
    write_line(fields)
    self
  end
  alias add_row <<
  alias puts <<

  def write_line(fields)
    sep = @row_sep == :auto ? "\n" : @row_sep.to_s
    line = fields.each_with_index.map { |f, i| quote_field(write_convert(f, i)) }.join(@col_sep) + sep
    if @io.is_a?(String)
      @io << line
    else
      @io.write(line)
    end
    @lineno_written += 1
  end
  private :write_line

  def write_convert(f, i)
    @write_converters.each { |c| f = c.arity == 1 ? c.call(f) : c.call(f, FieldInfo.new(i, lineno + 1, nil, false)) }
    f
  end
  private :write_convert

  def quote_field(f)
    if f.nil?
      f = @write_nil_value
      return @force_quotes ? @quote_char * 2 : "" if f.nil?
    end
    s = f.is_a?(String) ? f : f.to_s
    s = @write_empty_value.to_s if s.empty? && f.is_a?(String)
    if s.empty?
      return (@force_quotes || (@quote_empty && f.is_a?(String))) ? @quote_char * 2 : ""
    end
    if @force_quotes || s.include?(@quote_char) || s.include?(@col_sep) || s.include?("\n") || s.include?("\r")
      @quote_char + s.gsub(@quote_char, @quote_char * 2) + @quote_char
    else
      s
    end
  end
  private :quote_field

  # --- the underlying object ---

  def string
    @io.is_a?(String) ? @io : nil
  end

  def to_io
    @io
  end

  def path
    @io.respond_to?(:path) ? @io.path : nil
  end

  def flush
    @io.flush if @io.respond_to?(:flush)
  end

  def close
    @io.close if @io.respond_to?(:close)
    @closed = true
    nil
  end

  def closed?
    @io.respond_to?(:closed?) ? @io.closed? : @closed
  end

  def inspect
    "#<CSV io_type:#{@io.class} lineno:#{lineno} col_sep:#{@col_sep.inspect} row_sep:#{row_sep.inspect} quote_char:#{@quote_char.inspect}>"
  end
end

class Array
  def to_csv(**options)
    CSV.generate_line(self, **options)
  end
end

class String
  def parse_csv(**options)
    CSV.parse_line(self, **options)
  end
end
