# File.fnmatch and fnmatch? as CRuby's (the matching is fnmatch.c's), with FNM_EXTGLOB's braces:
#   File.fnmatch("c{at,ub}s", "cats", File::FNM_EXTGLOB)  #=> true
class File
  module Constants
    FNM_EXTGLOB = 0x10
    FNM_SHORTNAME = 0
  end

  class << self
    def fnmatch(pattern, path, flags = 0)
      path = path.to_path if !path.is_a?(String) && path.respond_to?(:to_path)
      raise TypeError, "no implicit conversion of #{path.class} into String" unless path.is_a?(String)
      raise TypeError, "no implicit conversion of #{pattern.class} into String" unless pattern.is_a?(String)
      return File.__fnmatch(pattern, path, flags) if flags & FNM_EXTGLOB == 0
      File.__brace_expand(pattern, flags).any? { |one| File.__fnmatch(one, path, flags) }
    end
    alias fnmatch? fnmatch

    # "a{b,c{d,e}}f" -> ["abf", "acdf", "acef"], the first brace's alternatives in order;
    # an unclosed "{" and an escaped one are ordinary characters.
    def __brace_expand(pattern, flags = 0)
      escape = flags & FNM_NOESCAPE == 0
      depth = 0
      open = nil
      commas = []
      i = 0
      while i < pattern.size
        c = pattern[i]
        if c == "\\" && escape
          i += 1
        elsif c == "{"
          open = i if depth == 0
          depth += 1
        elsif c == "," && depth == 1
          commas << i
        elsif c == "}" && depth > 0
          depth -= 1
          return __brace_alternatives(pattern, open, commas, i, flags) if depth == 0
        end
        i += 1
      end
      [pattern]
    end

    def __brace_alternatives(pattern, open, commas, close, flags)
      head = pattern[0, open]
      tail = pattern[close + 1, pattern.size]
      [open, *commas, close].each_cons(2).flat_map do |from, to|
        __brace_expand(head + pattern[from + 1...to] + tail, flags)
      end
    end
  end
end
