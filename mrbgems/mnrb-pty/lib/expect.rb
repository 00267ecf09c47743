# require "expect": IO#expect(pattern, timeout = 9999999), as CRuby's: reads a character at a
# time until what was read matches pattern (a Regexp, or a String matched literally) and returns
# [text read, captures...], or nil when timeout seconds pass without input or the input ends.
# Characters read past a failed expect are kept for the next one. ($expect_verbose, which echoes
# what is read, is not read here.)
class IO
  def expect(pat, timeout = 9999999)
    re = case pat
         when String then Regexp.new(Regexp.escape(pat))
         when Regexp then pat
         else raise TypeError, "unsupported pattern class: #{pat.class}"
         end
    @__expect_rest ||= +""
    buf = +""
    result = nil
    loop do
      if !@__expect_rest.empty?
        c = @__expect_rest.slice!(0)
      elsif !IO.select([self], nil, nil, timeout) || eof?
        @__expect_rest = buf
        break
      else
        c = getc
      end
      buf << c
      if (m = re.match(buf))
        result = [buf, *m.captures]
        break
      end
    end
    block_given? ? yield(result) : result
  end
end
