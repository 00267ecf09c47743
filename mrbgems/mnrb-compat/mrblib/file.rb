# File.basename(path, suffix), as CRuby: the suffix is removed when the name ends with it (".*":
# any extension), unless it is the whole name; "" for "". mruby's takes the path only, and
# answered "." (basename(3)) for "".
class File
  class << self
    alias __mnrb_basename basename

    def basename(path, suffix = nil)
      base = path == "" ? "" : __mnrb_basename(path)
      return base if suffix.nil?
      suffix = suffix.to_str
      if suffix == ".*"
        dot = base.rindex(".")
        return dot && dot > 0 ? base[0, dot] : base
      end
      base.size > suffix.size && base.end_with?(suffix) ? base[0, base.size - suffix.size] : base
    end
  end
end

# File.dirname(path, level = 1), as CRuby: the last `level` components and the separators before
# them go, separators inside the rest are kept, a leading run of them is one ("//a//b//" is
# "/a"), "." or "/" when nothing is left. mruby's was libc's dirname(3) (which keeps "//" and
# takes no level).
class File
  class << self
    def dirname(path, level = 1)
      path = path.to_path if !path.is_a?(String) && path.respond_to?(:to_path)
      raise TypeError, "no implicit conversion of #{path.nil? ? 'nil' : path.class} into String" unless path.respond_to?(:to_str)
      path = path.to_str
      raise TypeError, "no implicit conversion of #{level.class} into Integer" unless level.is_a?(Integer)
      raise ArgumentError, "negative level: #{level}" if level < 0
      return path.dup if level == 0
      abs = path.getbyte(0) == 47                         # "/"; bytes: a path's size in characters costs a scan
      e = path.bytesize
      level.times do
        e -= 1 while e > 0 && path.getbyte(e - 1) == 47   # trailing separators
        e -= 1 while e > 0 && path.getbyte(e - 1) != 47   # the last component
        e -= 1 while e > 0 && path.getbyte(e - 1) == 47   # the separators before it
        break if e == 0
      end
      return abs ? "/" : "." if e == 0
      s = 0
      s += 1 while s < e - 1 && path.getbyte(s) == 47 && path.getbyte(s + 1) == 47
      path.byteslice(s, e - s)
    end
  end
end
