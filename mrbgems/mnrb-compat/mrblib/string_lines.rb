# String#each_line and #lines with CRuby's separator argument and chomp: keyword (mruby's lines
# takes neither, its each_line no chomp:). Plain "\n" splitting without chomp keeps mruby's own,
# faster, code. chomp: drops the separator ("\r\n" too for "\n"); in paragraph mode ("") it
# leaves one "\n", and without chomp a paragraph keeps two (mruby kept every newline).
class String
  alias __mnrb_each_line_plain each_line
  alias __mnrb_lines_plain lines

  def each_line(sep = $/, chomp: false, &block)
    return Enumerator.new(self, :each_line, sep, chomp: chomp) unless block # to_enum passes no keywords
    sep = __mnrb_line_sep(sep)
    if sep == ""
      # paragraph mode: a paragraph ends with exactly two newlines (CRuby skips the rest)
      __mnrb_each_line_plain(sep) do |line|
        line = __mnrb_trim_newlines(line, 2)
        block.call(chomp ? __mnrb_trim_newlines(line, 1) : line)
      end
      return self
    end
    return __mnrb_each_line_plain(sep, &block) unless chomp
    __mnrb_each_line_plain(sep) { |line| block.call(__mnrb_chomp_line(line, sep)) }
    self
  end

  # line with its trailing newlines cut to keep (when it has more)
  def __mnrb_trim_newlines(line, keep)
    n = 0
    n += 1 while n < line.bytesize && line.getbyte(line.bytesize - 1 - n) == 10
    n > keep ? line.byteslice(0, line.bytesize - n + keep) : line
  end

  def lines(sep = $/, chomp: false, &block)
    return __mnrb_lines_plain(&block) if sep == "\n" && !chomp
    out = []
    each_line(sep, chomp: chomp) { |l| out << l }
    out.each(&block) if block
    block ? self : out
  end

  def __mnrb_line_sep(sep)
    return sep if sep.nil? || sep.is_a?(String)
    return sep.to_str if sep.respond_to?(:to_str)
    raise TypeError, "no implicit conversion of #{sep.class} into String"
  end

  def __mnrb_chomp_line(line, sep)
    if sep.nil?
      line
    elsif sep == "\n"
      line.end_with?("\r\n") ? line[0, line.size - 2] : line.end_with?("\n") ? line[0, line.size - 1] : line
    else
      line.end_with?(sep) ? line[0, line.size - sep.size] : line
    end
  end
end
