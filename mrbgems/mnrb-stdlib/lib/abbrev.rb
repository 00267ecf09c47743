# require "abbrev": Abbrev.abbrev(words, pattern = nil), the unambiguous abbreviations of a set of
# words, as CRuby's: a Hash from each prefix that only one word has (and each word itself) to its
# word. pattern (a String: the prefixes that start with it; a Regexp: those it matches) narrows it.
module Abbrev
  VERSION = "0.1.2"

  def abbrev(words, pattern = nil)
    table = {}
    seen = Hash.new(0)
    wanted = lambda do |s|
      pattern.nil? || (pattern.is_a?(String) ? s.start_with?(pattern) : pattern.match?(s))
    end
    # Each word counts itself and its prefixes, longest first; what a second word shares goes.
    # (A prefix three words share was shared by two already, and so are the shorter ones.)
    words.each do |word|
      word.size.downto(1) do |len|
        prefix = word[0, len]
        next unless wanted.call(prefix)
        seen[prefix] += 1
        if seen[prefix] == 1
          table[prefix] = word
        elsif seen[prefix] == 2
          table.delete(prefix)
        else
          break
        end
      end
    end
    words.each { |word| table[word] = word if wanted.call(word) }   # a word is its own abbreviation
    table
  end

  module_function :abbrev
end

class Array
  # Abbrev.abbrev(self, pattern).
  def abbrev(pattern = nil) = Abbrev.abbrev(self, pattern)
end
