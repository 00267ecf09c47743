# require "csv", the reader: CSV::Parser turns a source (a String or an IO) into rows of fields
# as CRuby's csv 3.x does (RFC 4180 plus its options). Rows are read line by line: a line is
# the text up to the row separator, and a quoted field that holds the separator takes the next
# line too. A line with no quote character is split at once (String#split); others go through
# the field loop. Unquoted empty fields are nil, quoted empty ones "". Errors are
# CSV::MalformedCSVError with CRuby's messages and the number of the row being read ("in line N.";
# CRuby counts rows, not physical lines, there and in #lineno).
class CSV
  class MalformedCSVError < RuntimeError
    attr_reader :line_number
    alias lineno line_number

    def initialize(message, line_number)
      @line_number = line_number
      super("#{message} in line #{line_number}.")
    end
  end

  class Parser
    NEWLINE_RE = Regexp.new("[\r\n]").freeze
    # Invariants: @pending holds text read from an IO but not yet returned as a line; @pos is the
    # offset of the next unread character of a String source. @row_sep is nil until the first
    # read when the option was :auto.
    def initialize(src, col_sep, row_sep, quote_char, liberal, strip)
      @src = src
      @pos = 0
      @pending = ""
      @col_sep = col_sep
      @row_sep = row_sep == :auto ? nil : row_sep
      @quote = quote_char
      @liberal = liberal
      @strip = strip
      @strip_re = strip.is_a?(String) ? Regexp.new("\\A[#{Regexp.escape(strip)}]+|[#{Regexp.escape(strip)}]+\\z") : nil
      @lineno = 0
      @line = nil
    end

    attr_reader :lineno, :line
    attr_writer :lineno

    def row_sep
      @row_sep || detect_row_sep
    end

    # The first "\r\n", "\n" or "\r" of the data, or "\n" when there is none.
    def detect_row_sep
      sample = @src.is_a?(String) ? @src[@pos, 4096] : fill_pending(4096)
      i = sample.index(NEWLINE_RE)
      @row_sep = if i.nil? then "\n"
                 elsif sample[i] == "\n" then "\n"
                 elsif sample[i + 1] == "\n" then "\r\n"
                 elsif i + 1 == sample.size && !@src.is_a?(String) && (c = @src.getc)
                   @pending << c
                   c == "\n" ? "\r\n" : "\r"
                 else "\r"
                 end
    end

    def fill_pending(n)
      while @pending.size < n
        chunk = @src.gets or break
        @pending << chunk
      end
      @pending
    end
    private :fill_pending

    # The next line with its separator, or nil at the end of the data.
    def next_line
      sep = row_sep
      if @src.is_a?(String)
        return nil if @pos >= @src.size
        i = @src.index(sep, @pos)
        stop = i ? i + sep.size : @src.size
        s = @src[@pos...stop]
        @pos = stop
        return s
      end
      loop do
        if (i = @pending.index(sep))
          s = @pending[0, i + sep.size]
          @pending = @pending[(i + sep.size)..-1]
          return s
        end
        chunk = @src.gets(sep)
        if chunk.nil?
          return nil if @pending.empty?
          s = @pending
          @pending = ""
          return s
        end
        @pending << chunk
      end
    end

    # The next row: an Array of fields ([] for a blank line) with a parallel Array of quoted
    # flags, or nil at the end of the data.
    def shift
      raw = next_line or return nil
      @lineno += 1
      @line = raw.dup
      sep = row_sep
      text = raw.end_with?(sep) ? raw[0, raw.size - sep.size] : raw
      return [[], []] if text.empty?
      if !text.include?(@quote) && !@strip
        fields = text.split(@col_sep, -1)
        fields.each { |f| check_unquoted(f) }
        return [fields.map { |f| f.empty? ? nil : f }, nil]
      end
      parse_fields(text, raw.end_with?(sep))
    end

    def parse_fields(text, had_sep)
      fields = []
      quoted = []
      i = 0
      sep = row_sep
      loop do
        i = skip_strip(text, i)
        if text[i, @quote.size] == @quote
          value = +""
          j = i + @quote.size
          loop do
            k = text.index(@quote, j)
            if k.nil?
              raise CSV::MalformedCSVError.new("Unclosed quoted field", @lineno) unless had_sep
              more = next_line
              raise CSV::MalformedCSVError.new("Unclosed quoted field", @lineno) unless more
              @line << more
              value << text[j..-1] << sep
              had_sep = more.end_with?(sep)
              text = had_sep ? more[0, more.size - sep.size] : more
              j = 0
            elsif text[k + @quote.size, @quote.size] == @quote
              value << text[j...k] << @quote
              j = k + 2 * @quote.size
            else
              value << text[j...k]
              i = k + @quote.size
              break
            end
          end
          i = skip_strip(text, i)
          if i < text.size && text[i, @col_sep.size] != @col_sep
            raise CSV::MalformedCSVError.new("Any value after quoted field isn't allowed", @lineno) unless @liberal
            k = text.index(@col_sep, i) || text.size
            value = @quote + value.gsub(@quote, @quote * 2) + @quote + text[i...k]
            fields << value
            quoted << false
            i = k
          else
            fields << value
            quoted << true
          end
        else
          k = text.index(@col_sep, i) || text.size
          f = text[i...k]
          f = strip_field(f) if @strip
          if f.include?(@quote) && !@liberal
            raise CSV::MalformedCSVError.new("Illegal quoting", @lineno)
          end
          check_unquoted(f)
          fields << (f.empty? ? nil : f)
          quoted << false
          i = k
        end
        break if i >= text.size
        i += @col_sep.size
        if i >= text.size          # a separator at the end: one more, empty field
          fields << nil
          quoted << false
          break
        end
      end
      [fields, quoted]
    end
    private :parse_fields

    def skip_strip(text, i)
      return i unless @strip
      if @strip_re
        i += 1 while i < text.size && @strip.include?(text[i])
      else
        i += 1 while i < text.size && text[i] == " "
      end
      i
    end

    def strip_field(f)
      @strip_re ? f.gsub(@strip_re, "") : f.strip
    end

    def check_unquoted(f)
      if (i = f.index(NEWLINE_RE))
        raise CSV::MalformedCSVError.new("Unquoted fields do not allow new line <#{f[i].inspect}>", @lineno)
      end
    end
    private :skip_strip, :strip_field, :check_unquoted
  end
end
