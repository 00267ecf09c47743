# Symbol's String-like readers (CRuby): [], slice, start_with?, end_with?, succ/next, swapcase,
# id2name, encoding.
class Symbol
  def [](*args) = to_s[*args]
  alias slice []
  def start_with?(*prefixes) = to_s.start_with?(*prefixes)
  def end_with?(*suffixes) = to_s.end_with?(*suffixes)
  def succ = to_s.succ.to_sym
  alias next succ
  def swapcase = to_s.swapcase.to_sym
  def id2name = to_s

  # US-ASCII for an ASCII-only name; UTF-8 for valid UTF-8; else ASCII-8BIT (String#encoding comes
  # from a gem loaded after this one, so it is looked up when called). CRuby's Symbols keep their
  # String's encoding and refuse invalid UTF-8 as UTF-8; mnrb's know only their bytes, so bytes that
  # are not UTF-8 (a BINARY String's, the commonest) read as ASCII-8BIT ("\xFF".b.to_sym).
  def encoding
    s = to_s
    return s.encoding unless Object.const_defined?(:Encoding) && Encoding.const_defined?(:US_ASCII)
    return Encoding::US_ASCII if s.ascii_only?
    s.valid_encoding? ? s.encoding : Encoding::ASCII_8BIT
  end
end
