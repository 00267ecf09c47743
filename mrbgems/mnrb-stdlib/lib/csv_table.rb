# require "csv": CSV::Table, the rows read with headers, as CRuby's. Its mode says how [] and
# each read it: :col_or_row (the default: an Integer is a row, anything else a header),
# :row, or :col (columns: [] gives a column's fields, each yields [header, fields]).
class CSV
  class Table
    include Enumerable

    attr_reader :mode

    def initialize(rows, headers: nil)
      @rows = rows
      @headers = headers
      @mode = :col_or_row
    end

    def table
      @rows
    end
    protected :table

    def headers
      if @rows.empty?
        (@headers || []).dup
      else
        @rows.first.headers
      end
    end

    def by_col; dup.by_col!; end
    def by_row; dup.by_row!; end
    def by_col_or_row; dup.by_col_or_row!; end
    def by_col!; @mode = :col; self; end
    def by_row!; @mode = :row; self; end
    def by_col_or_row!; @mode = :col_or_row; self; end

    def initialize_copy(other)
      super
      @rows = other.table.dup
    end

    def column?(which)
      @mode == :col || (@mode == :col_or_row && !which.is_a?(Integer) && !which.is_a?(Range))
    end
    private :column?

    def [](which)
      if column?(which)
        @rows.map { |r| r[which] }
      else
        @rows[which]
      end
    end

    def []=(which, value)
      if column?(which)
        if value.is_a?(Array)
          @rows.each_with_index { |r, i| r[which] = value[i] }
        else
          @rows.each { |r| r[which] = value }
        end
      else
        value = CSV::Row.new(headers, value) if value.is_a?(Array)
        @rows[which] = value
      end
    end

    def values_at(*which)
      if @mode == :col
        @rows.map { |r| r.values_at(*which) }
      else
        @rows.values_at(*which)
      end
    end

    def each(&block)
      return to_enum(:each) { size } unless block
      if @mode == :col
        headers.each { |h| yield [h, self[h]] }
      else
        @rows.each(&block)
      end
      self
    end

    def <<(row)
      @rows << (row.is_a?(Array) ? CSV::Row.new(headers, row) : row)
      self
    end

    def push(*rows)
      rows.each { |r| self << r }
      self
    end

    def delete(*which)
      deleted = which.map do |w|
        if column?(w)
          @rows.map { |r| r.delete(w).last }
        else
          @rows.delete_at(w)
        end
      end
      which.size == 1 ? deleted[0] : deleted
    end

    def delete_if(&block)
      return to_enum(:delete_if) unless block
      if @mode == :col
        headers.each { |h| delete(h) if yield([h, self[h]]) }
      else
        @rows.delete_if(&block)
      end
      self
    end

    def size; @rows.size; end
    alias length size

    def ==(other)
      return @rows == other.table if other.is_a?(CSV::Table)
      @rows == other
    end

    def dig(index_or_header, *rest)
      v = self[index_or_header]
      return v if rest.empty? || v.nil?
      v.dig(*rest)
    end

    # The headers as the first row, then every row's fields.
    def to_a
      [headers] + @rows.reject(&:header_row?).map(&:fields)
    end

    def to_csv(write_headers: true, limit: nil, **options)
      rows = limit ? @rows.first(limit) : @rows
      s = write_headers ? headers.to_csv(**options) : +""
      rows.each { |r| s << r.fields.to_csv(**options) unless r.header_row? }
      s
    end
    alias to_s to_csv

    # csv 3.2.8's (Ruby 3.3): the summary line, then the first rows as CSV (3.2.2 has no rows).
    def inspect
      "#<CSV::Table mode:#{@mode} row_count:#{to_a.size}>\n" + to_csv(limit: 5)
    end
  end
end
