# File.basename(path, suffix), as CRuby: the suffix is removed when the name ends with it (".*":
# any extension), unless it is the whole name. mruby's takes the path only.
class File
  class << self
    alias __mnrb_basename basename

    def basename(path, suffix = nil)
      base = __mnrb_basename(path)
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
