# require "shellwords": splitting a line into words as the Bourne shell does, and escaping words
# so that the shell reads them back unchanged, as CRuby's Shellwords module has it.
#
# shellsplit reads the line once, character by character: blanks end a word; '...' is taken
# literally; in "..." a backslash escapes only $ ` " \ and a newline; outside quotes a backslash
# escapes the next character (a backslash and a newline are kept as they are, as CRuby 3.1 does).
# Quotes join with what touches them ("a"b is one word, ab). A quote without its closing partner
# raises ArgumentError "Unmatched quote: <line inspected>". shellescape backslash-escapes every
# character outside A-Za-z0-9_-.,:+/@ and newline, and quotes a newline as '\n'; an empty word
# becomes ''.
module Shellwords
  BLANKS = " \t\n\v\f\r"
  DQ_ESCAPABLE = "$`\"\\\n"
  SAFE = Regexp.new('[^A-Za-z0-9_\-.,:+/@\n]')
  private_constant :BLANKS, :DQ_ESCAPABLE, :SAFE if respond_to?(:private_constant, true)

  def shellsplit(line)
    line = line.to_str
    chars = line.chars
    words = []
    word = nil
    i = 0
    n = chars.size
    while i < n
      c = chars[i]
      if BLANKS.include?(c)
        words << word if word
        word = nil
        i += 1
        next
      end
      word ||= +""
      case c
      when "'"
        close = i + 1
        close += 1 while close < n && chars[close] != "'"
        raise ArgumentError, "Unmatched quote: #{line.inspect}" if close >= n
        word << chars[(i + 1)...close].join
        i = close + 1
      when "\""
        i += 1
        loop do
          raise ArgumentError, "Unmatched quote: #{line.inspect}" if i >= n
          c = chars[i]
          break if c == "\""
          if c == "\\" && i + 1 < n
            nxt = chars[i + 1]
            word << "\\" unless DQ_ESCAPABLE.include?(nxt)
            word << nxt
            i += 2
          else
            word << c
            i += 1
          end
        end
        i += 1
      when "\\"
        nxt = chars[i + 1]
        if nxt.nil?
          word << "\\"
        elsif nxt == "\n"
          word << "\\\n"
        else
          word << nxt
        end
        i += 2
      else
        word << c
        i += 1
      end
    end
    words << word if word
    words
  end

  def shellescape(str)
    str = str.to_s
    return "''" if str.empty?
    # no shell word can hold a NUL (shellwords 0.2, Ruby 3.4+; 3.3 let it through)
    raise ArgumentError, "NUL character" if str.include?("\0")
    str.gsub(SAFE) { |c| "\\#{c}" }.gsub("\n", "'\n'")
  end

  def shelljoin(array)
    array.map { |arg| shellescape(arg) }.join(" ")
  end

  alias shellwords shellsplit
  alias split shellsplit
  alias escape shellescape
  alias join shelljoin

  module_function :shellsplit, :shellescape, :shelljoin, :shellwords, :split, :escape, :join
end

class String
  def shellsplit
    Shellwords.shellsplit(self)
  end

  def shellescape
    Shellwords.shellescape(self)
  end
end

class Array
  def shelljoin
    Shellwords.shelljoin(self)
  end
end
