# String#each_codepoint without a block is an Enumerator as in CRuby (mruby's is an alias of
# codepoints, which returns an Array).
class String
  def each_codepoint(&block)
    return to_enum(:each_codepoint) unless block
    codepoints(&block)
  end
end
