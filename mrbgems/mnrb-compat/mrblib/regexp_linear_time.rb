# Regexp.linear_time?(re) (CRuby 3.3): whether matching re takes time linear in the input. CRuby's
# memoization makes every pattern linear but those with back-references and absence operators;
# mnrb answers by the same rule from the source.
class Regexp
  def self.linear_time?(re, timeout: nil)
    re = Regexp.new(re) unless re.is_a?(Regexp)
    src = re.source
    i = 0
    while i < src.size
      c = src[i]
      if c == "\\"
        n = src[i + 1]
        return false if n && (("1".."9").include?(n) || n == "k")
        i += 2
        next
      end
      return false if c == "(" && src[i + 1, 2] == "?~"
      i += 1
    end
    true
  end
end
