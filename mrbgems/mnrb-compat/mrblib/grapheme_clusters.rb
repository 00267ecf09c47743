# String#grapheme_clusters and #each_grapheme_cluster (CRuby), by a reduced form of Unicode's
# extended grapheme cluster rules: CR LF stays together; combining marks (the common blocks),
# variation selectors, emoji skin-tone modifiers, tag characters, ZWNJ and ZWJ extend the cluster
# before them; a ZWJ also joins the character after it (emoji ZWJ sequences); regional
# indicators pair up (flags). Hangul jamo sequences and Indic conjuncts (whose rules need the
# Unicode property tables) are split per character, where CRuby keeps them whole. Strings that
# are not UTF-8 (or are invalid) are split per character.
class String
  def grapheme_clusters
    out = []
    each_grapheme_cluster { |g| out << g }
    out
  end

  def each_grapheme_cluster(&block)
    return to_enum(:each_grapheme_cluster) { __mnrb_grapheme_list.size } unless block
    __mnrb_grapheme_list.each(&block)
    self
  end

  def __mnrb_grapheme_extend?(c)
    (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
      (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xFE20 && c <= 0xFE2F) ||
      (c >= 0x1F3FB && c <= 0x1F3FF) || (c >= 0xE0020 && c <= 0xE007F) || c == 0x200C || c == 0x200D ||
      (c >= 0xE0100 && c <= 0xE01EF)
  end

  def __mnrb_grapheme_list
    chars = self.chars
    utf8 = !respond_to?(:encoding) || encoding.to_s == "UTF-8"
    return chars unless utf8 && (!respond_to?(:valid_encoding?) || valid_encoding?)
    out = []
    i = 0
    n = chars.size
    while i < n
      g = chars[i]
      c = g.ord
      i += 1
      if c == 13 && i < n && chars[i] == "\n"
        out << "\r\n"
        i += 1
        next
      end
      if c >= 0x1F1E6 && c <= 0x1F1FF && i < n && (d = chars[i].ord) >= 0x1F1E6 && d <= 0x1F1FF
        g += chars[i]
        i += 1
      end
      unless c == 10 || c == 13
        while i < n
          d = chars[i].ord
          break unless __mnrb_grapheme_extend?(d)
          g += chars[i]
          i += 1
          if d == 0x200D && i < n && chars[i].ord > 0x7F
            g += chars[i]
            i += 1
          end
        end
      end
      out << g
    end
    out
  end
end
