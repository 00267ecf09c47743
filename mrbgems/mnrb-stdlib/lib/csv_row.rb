# require "csv": CSV::Row, a row read with headers, as CRuby's: an ordered list of [header,
# field] pairs (a header may repeat; lookups by header take the first, or the first at or after
# a minimum index), plus a flag for the header row itself.
class CSV
  class Row
    include Enumerable

    # Fields beyond the headers get nil headers; headers beyond the fields get nil fields.
    def initialize(headers, fields, header_row = false)
      @header_row = header_row
      headers.each { |h| h.freeze if h.is_a?(String) }
      n = headers.size > fields.size ? headers.size : fields.size
      @row = Array.new(n) { |i| [headers[i], fields[i]] }
    end

    def header_row?; @header_row; end
    def field_row?; !@header_row; end

    def headers
      @row.map(&:first)
    end

    def fields(*which)
      return @row.map(&:last) if which.empty?
      which.flat_map do |h|
        if h.is_a?(Range)
          (@row[h] || []).map(&:last)
        else
          [h.is_a?(Array) ? field(*h) : field(h)]
        end
      end
    end
    alias values_at fields

    # field(header_or_index, minimum_index = 0)
    def field(which, minimum_index = 0)
      if which.is_a?(Integer)
        pair = @row[which]
        pair && pair[1]
      elsif which.is_a?(Range)
        (@row[which] || []).map(&:last)
      else
        pair = @row[minimum_index..-1].to_a.find { |h, _| h == which }
        pair && pair[1]
      end
    end
    alias [] field

    def fetch(header, *default)
      raise ArgumentError, "Too many arguments" if default.size > 1
      pair = @row.find { |h, _| h == header }
      return pair[1] if pair
      return yield(header) if block_given?
      return default[0] unless default.empty?
      raise KeyError, "key not found: #{header}"
    end

    # row[header] = value, row[index] = value, row[header, minimum_index] = value
    def []=(*args)
      value = args.pop
      which = args[0]
      if which.is_a?(Integer)
        if which >= @row.size
          (@row.size...which).each { @row << [nil, nil] }
          @row << [nil, value]
        else
          @row[which][1] = value
        end
      else
        start = args[1] || 0
        i = index(which, start)
        if i
          @row[i][1] = value
        else
          @row << [which, value]
        end
      end
    end

    # row << field, row << [header, field], row << {header => field}
    def <<(arg)
      if arg.is_a?(Array) && arg.size == 2
        @row << arg.dup
      elsif arg.is_a?(Hash)
        arg.each { |k, v| @row << [k, v] }
      else
        @row << [nil, arg]
      end
      self
    end

    def push(*args)
      args.each { |a| self << a }
      self
    end

    def delete(which, minimum_index = 0)
      if which.is_a?(Integer)
        @row.delete_at(which)
      else
        i = index(which, minimum_index)
        i ? @row.delete_at(i) : []
      end
    end

    def delete_if(&block)
      return to_enum(:delete_if) unless block
      @row.delete_if(&block)
      self
    end

    def index(header, minimum_index = 0)
      i = @row[minimum_index..-1].to_a.index { |h, _| h == header }
      i && i + minimum_index
    end

    def has_key?(header)
      @row.any? { |h, _| h == header }
    end
    alias include? has_key?
    alias key? has_key?
    alias member? has_key?
    alias header? has_key?

    def field?(data)
      fields.include?(data)
    end

    def each(&block)
      return to_enum(:each) { size } unless block
      @row.each { |pair| yield pair }
      self
    end
    alias each_pair each

    def size; @row.size; end
    alias length size

    def empty?; @row.empty?; end

    def to_a
      @row.map(&:dup)
    end

    # The first field of each header wins, as CRuby's.
    def to_h
      h = {}
      @row.each { |k, v| h[k] = v unless h.key?(k) }
      h
    end
    alias to_hash to_h

    def dig(index_or_header, *rest)
      v = field(index_or_header)
      return v if rest.empty? || v.nil?
      v.dig(*rest)
    end

    def ==(other)
      return @row == other.row_pairs if other.is_a?(CSV::Row)
      @row == other
    end

    def row_pairs
      @row
    end
    protected :row_pairs

    def initialize_copy(other)
      super
      @row = other.row_pairs.map(&:dup)
    end

    def to_csv(**options)
      fields.to_csv(**options)
    end
    alias to_s to_csv

    def inspect
      s = "#<CSV::Row"
      @row.each { |h, v| s << " " << h.inspect << ":" << v.inspect }
      s << ">"
    end
  end
end
