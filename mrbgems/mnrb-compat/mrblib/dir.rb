# Dir as CRuby 3.x has it, over mruby-dir (open/read/close, mkdir, rmdir, chdir, getwd, exist?):
# Dir.glob and Dir[], children and each_child without "." and "..", enumerators without a block,
# Dir#path/to_path/inspect, closing twice, Dir.empty? of a file, chdir without an argument
# (Dir.home and Dir#fileno are dir.c's). Dir.exists? is gone, as in 3.2.
#
# Directory reads block the calling thread with the GVL held, like mruby-dir's: acceptable on
# local filesystems, not on a slow network one.
#
# Dir.glob(pattern | [patterns], flags = 0 (or flags:), base: nil, sort: true): braces first ("{b,a}" gives b's
# matches, then a's), then one directory level per component, each directory's entries sorted
# (sort: false keeps readdir's order) and each entry's own matches before those under it, as
# CRuby. "**/" is zero or more directories (no hidden ones, no symlinks, unless FNM_DOTMATCH shows
# hidden ones); components without wildcards are looked up, not listed; "." is matched only
# where a pattern asks for it explicitly or FNM_DOTMATCH is given, outside "**/" recursion;
# ".." never.
class Dir
  alias __mruby_initialize initialize
  alias __mruby_close close

  def initialize(path, encoding: nil)
    path = path.to_path if !path.is_a?(String) && path.respond_to?(:to_path)
    __mruby_initialize(path)
    @path = path
  end

  def path = @path
  alias to_path path

  def inspect = "#<Dir:#{@path}>"

  # Closing a closed Dir is a no-op (CRuby 2.3+).
  def close
    __mruby_close
  rescue IOError
    nil
  end

  def each(&block)
    return to_enum(:each) unless block
    while (name = read)
      block.call(name)
    end
    self
  end

  def each_child(&block)
    return to_enum(:each_child) unless block
    each { |name| block.call(name) unless name == "." || name == ".." }
  end

  def children
    each_child.to_a
  end

  class << self
    undef_method :exists?

    # encoding: (CRuby's keyword, FileUtils passes it) tags the names with that encoding
    def children(path, encoding: nil)
      open(path) { |d| __mnrb_tag(d.children, encoding) }
    end

    def entries(path, encoding: nil)
      open(path) { |d| __mnrb_tag(d.each.to_a, encoding) }
    end

    def each_child(path, encoding: nil, &block)
      return to_enum(:each_child, path, encoding: encoding) unless block
      open(path) { |d| d.each_child { |name| block.call(__mnrb_tag(name, encoding)) } }
      nil
    end

    def foreach(path, encoding: nil, &block)
      return to_enum(:foreach, path, encoding: encoding) unless block
      open(path) { |d| d.each { |name| block.call(__mnrb_tag(name, encoding)) } }
      nil
    end

    def __mnrb_tag(names, encoding)
      return names if encoding.nil?
      return names.each { |n| n.force_encoding(encoding) } if names.is_a?(Array)
      names.force_encoding(encoding)
    end

    def empty?(path)
      return false if File.exist?(path) && !File.directory?(path)
      children(path).empty?
    end

    def chdir(path = nil, &block)
      path ||= ENV["HOME"] || home
      return _chdir(path) unless block
      saved = getwd
      begin
        _chdir(path)
        block.call(path)
      ensure
        _chdir(saved)
      end
    end

    def [](*patterns, base: nil, sort: true)
      glob(patterns, 0, base: base, sort: sort)
    end

    def glob(pattern, flag_bits = nil, flags: 0, base: nil, sort: true, &block)
      flags = flag_bits || flags
      found = []
      (pattern.is_a?(Array) ? pattern : [pattern]).each do |pat|
        pat = pat.to_path if !pat.is_a?(String) && pat.respond_to?(:to_path)
        pat = pat.to_str if !pat.is_a?(String) && pat.respond_to?(:to_str)   # as CRuby
        raise TypeError, "no implicit conversion of #{pat.class} into String" unless pat.is_a?(String)
        File.__brace_expand(pat, flags).each { |one| __glob_one(one, flags, base, sort, found) }
      end
      return found unless block
      found.each(&block)
      nil
    end

    # One brace-free pattern: its components, then a walk from the start directory.
    def __glob_one(pattern, flags, base, sort, found)
      return if pattern.empty?
      absolute = pattern.start_with?("/")
      parts = pattern.split("/").reject(&:empty?)
      parts << "" if pattern.end_with?("/") && !parts.empty?   # "*/": directories only
      return found << "/" if parts.empty? && absolute
      glob = { segs: parts, flags: flags, sort: sort, found: found,
               base: (absolute || base.nil? || base.empty?) ? nil : base }
      __glob_walk(glob, absolute ? "/" : "", [0], false)
    end

    # In the directory prefix names, matches the pattern from each component index in states;
    # recursed: reached through "**/".
    def __glob_walk(glob, prefix, states, recursed)
      segs = glob[:segs]
      listed = []
      deep = []
      __glob_expand(segs, states).each do |i|
        seg = segs[i]
        if seg == "**" && i < segs.size - 1
          deep << i
        elsif seg == "**" || __glob_magic?(seg, glob[:flags])
          listed << i
        else
          __glob_literal(glob, prefix, i)
        end
      end
      return if listed.empty? && deep.empty?
      __glob_entries(glob, prefix).each do |name|
        next if name == ".." || (name == "." && recursed)
        path = __glob_join(prefix, name)
        nexts = __glob_match(glob, path, name, listed)
        nexts.concat(deep) if !deep.empty? && __glob_descend?(glob, path, name)
        __glob_walk(glob, path, nexts.uniq, !deep.empty? && nexts.any? { |i| deep.include?(i) }) unless nexts.empty?
      end
    end

    # States with each "**/" also standing for zero directories.
    def __glob_expand(segs, states)
      out = []
      states.each do |i|
        while segs[i] == "**" && i < segs.size - 1
          out << i
          i += 1
        end
        out << i
      end
      out.uniq
    end

    # The listed components name matches: yields it when the pattern ends there, else the
    # component indices to go on with inside it.
    def __glob_match(glob, path, name, listed)
      nexts = []
      listed.each do |i|
        next unless File.__fnmatch(glob[:segs][i], name, glob[:flags] | File::FNM_PATHNAME)
        if i == glob[:segs].size - 1
          glob[:found] << path
        elsif File.directory?(__glob_fs(glob, path))
          nexts << i + 1
        end
      end
      nexts
    end

    def __glob_descend?(glob, path, name)
      return false if name == "."
      return false if name.start_with?(".") && glob[:flags] & File::FNM_DOTMATCH == 0
      fs = __glob_fs(glob, path)
      File.directory?(fs) && !File.symlink?(fs)
    end

    # A component without wildcards: looked up, not listed.
    def __glob_literal(glob, prefix, i)
      segs = glob[:segs]
      name = __glob_unescape(segs[i], glob[:flags])
      if name.empty?   # the trailing "/" of "dir/"
        glob[:found] << prefix + "/" if !prefix.empty? && File.directory?(__glob_fs(glob, prefix))
        return
      end
      path = __glob_join(prefix, name)
      fs = __glob_fs(glob, path)
      if i == segs.size - 1
        glob[:found] << path if File.exist?(fs) || File.symlink?(fs)
      elsif File.directory?(fs)
        __glob_walk(glob, path, [i + 1], false)
      end
    end

    def __glob_entries(glob, prefix)
      names = entries(__glob_fs(glob, prefix))
      glob[:sort] ? names.sort : names
    rescue SystemCallError
      []
    end

    def __glob_fs(glob, path)
      base = glob[:base]
      return path.empty? ? "." : path unless base
      path.empty? ? base : File.join(base, path)
    end

    def __glob_join(prefix, name)
      return name if prefix.empty?
      prefix.end_with?("/") ? prefix + name : "#{prefix}/#{name}"
    end

    def __glob_magic?(seg, flags)
      escape = flags & File::FNM_NOESCAPE == 0
      i = 0
      while i < seg.size
        c = seg[i]
        return true if c == "*" || c == "?" || c == "["
        i += 1 if c == "\\" && escape
        i += 1
      end
      false
    end

    def __glob_unescape(seg, flags)
      return seg if flags & File::FNM_NOESCAPE != 0 || !seg.include?("\\")
      out = ""
      i = 0
      while i < seg.size
        i += 1 if seg[i] == "\\" && i + 1 < seg.size
        out << seg[i]
        i += 1
      end
      out
    end
  end
end
