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

  # US-ASCII for an ASCII-only name, else its String's encoding (String#encoding comes from a gem
  # loaded after this one, so it is looked up when called)
  def encoding
    s = to_s
    s.ascii_only? && Object.const_defined?(:Encoding) && Encoding.const_defined?(:US_ASCII) ? Encoding::US_ASCII : s.encoding
  end
end
