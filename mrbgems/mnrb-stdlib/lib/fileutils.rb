# require "fileutils": FileUtils as CRuby's, on mnrb's File and Dir: mkdir(_p), rmdir, rm(_f, _r,
# _rf), cp(_r), mv, ln_s, ln, touch, chmod, pwd, cd (with a block), compare_file, uptodate?; each
# takes a path or a list, and noop:/verbose: as CRuby (verbose writes the shell command it
# stands for, "mkdir -p a b", to $stdout). Errors are re-raised by name: a bare raise in a rescue
# would need $!, which mnrb does not set yet.
#
# Trees are walked without following symlinks: rm_r removes a link, never what it points at;
# cp_r copies a link as a link. mnrb has no File.stat or File.utime yet, so cp does not keep the
# mode (preserve: is accepted), touch makes a missing file and, without File.utime, brings an
# existing file's mtime to now by rewriting its first byte (mtime: is then ignored), and ln
# raises NotImplementedError where File.link is missing.
module FileUtils
  CHUNK = 65536

  def self.__list__(list)
    [list].flatten.map { |p| p.respond_to?(:to_path) ? p.to_path : p.to_str }
  end

  def self.__say__(msg)
    puts msg
  end

  def pwd
    Dir.pwd
  end

  def cd(dir, verbose: nil, &block)
    FileUtils.__say__("cd #{dir}") if verbose
    result = Dir.chdir(dir, &block)
    FileUtils.__say__("cd -") if verbose && block
    result
  end

  def mkdir(list, mode: nil, noop: nil, verbose: nil)
    list = FileUtils.__list__(list)
    FileUtils.__say__("mkdir #{mode ? format("-m %03o ", mode) : ""}#{list.join(" ")}") if verbose
    return if noop
    list.each { |dir| mode ? Dir.mkdir(dir, mode) : Dir.mkdir(dir) }
  end

  def mkdir_p(list, mode: nil, noop: nil, verbose: nil)
    list = FileUtils.__list__(list)
    FileUtils.__say__("mkdir -p #{mode ? format("-m %03o ", mode) : ""}#{list.join(" ")}") if verbose
    return list if noop
    list.each { |dir| FileUtils.__mkdir_p__(dir.chomp("/"), mode) }
    list
  end

  def self.__mkdir_p__(dir, mode)
    return if dir.empty? || File.directory?(dir)
    parent = File.dirname(dir)
    __mkdir_p__(parent, mode) unless parent == dir
    begin
      mode ? Dir.mkdir(dir, mode) : Dir.mkdir(dir)
    rescue SystemCallError => e
      raise e unless File.directory?(dir)
    end
  end

  def rmdir(list, parents: nil, noop: nil, verbose: nil)
    list = FileUtils.__list__(list)
    FileUtils.__say__("rmdir #{parents ? "-p " : ""}#{list.join(" ")}") if verbose
    return if noop
    list.each do |dir|
      Dir.rmdir(dir)
      next unless parents
      begin
        while (dir = File.dirname(dir)) != "." && dir != "/"
          Dir.rmdir(dir)
        end
      rescue SystemCallError
        nil
      end
    end
  end

  def rm(list, force: nil, noop: nil, verbose: nil)
    list = FileUtils.__list__(list)
    FileUtils.__say__("rm#{force ? " -f" : ""} #{list.join(" ")}") if verbose
    return if noop
    list.each do |path|
      begin
        File.delete(path)
      rescue SystemCallError => e
        raise e unless force
      end
    end
  end

  def rm_f(list, noop: nil, verbose: nil)
    rm(list, force: true, noop: noop, verbose: verbose)
  end

  def rm_r(list, force: nil, noop: nil, verbose: nil, secure: nil)
    list = FileUtils.__list__(list)
    FileUtils.__say__("rm -r#{force ? "f" : ""} #{list.join(" ")}") if verbose
    return if noop
    list.each do |path|
      begin
        FileUtils.__remove_tree__(path)
      rescue SystemCallError => e
        raise e unless force
      end
    end
  end

  def rm_rf(list, noop: nil, verbose: nil, secure: nil)
    rm_r(list, force: true, noop: noop, verbose: verbose, secure: secure)
  end

  def self.__remove_tree__(path)
    if !File.symlink?(path) && File.directory?(path)
      Dir.children(path).each { |name| __remove_tree__(File.join(path, name)) }
      Dir.rmdir(path)
    else
      File.delete(path)
    end
  end

  def remove_entry(path, force = false)
    FileUtils.__remove_tree__(path)
  rescue SystemCallError => e
    raise e unless force
  end

  def remove_entry_secure(path, force = false)
    remove_entry(path, force)
  end

  def remove_file(path, force = false)
    File.delete(path)
  rescue SystemCallError => e
    raise e unless force
  end

  def remove_dir(path, force = false)
    remove_entry(path, force)
  end

  # Pairs each source with its destination: into dest when it is a directory (or when there are
  # several sources), else dest itself.
  def self.__pairs__(src, dest)
    dest = dest.respond_to?(:to_path) ? dest.to_path : dest.to_str
    if src.is_a?(Array)
      __list__(src).map { |s| [s, File.join(dest, File.basename(s))] }
    else
      s = __list__(src)[0]
      [[s, File.directory?(dest) ? File.join(dest, File.basename(s)) : dest]]
    end
  end

  def self.__same__(a, b)
    File.expand_path(a) == File.expand_path(b) ||
      (File.respond_to?(:identical?) && File.exist?(b) && File.identical?(a, b))
  end

  def cp(src, dest, preserve: nil, noop: nil, verbose: nil)
    FileUtils.__say__("cp#{preserve ? " -p" : ""} #{FileUtils.__list__(src).join(" ")} #{dest}") if verbose
    return if noop
    FileUtils.__pairs__(src, dest).each do |s, d|
      raise ArgumentError, "same file: #{s} and #{d}" if FileUtils.__same__(s, d)
      copy_file(s, d)
    end
  end

  def copy_file(src, dest, preserve = false, dereference = true)
    raise Errno::EISDIR, src if File.directory?(src)
    File.open(src, "rb") do |r|
      File.open(dest, "wb") do |w|
        while (chunk = r.read(CHUNK))
          w.write(chunk)
        end
      end
    end
  end

  def cp_r(src, dest, preserve: nil, noop: nil, verbose: nil, dereference_root: true, remove_destination: nil)
    FileUtils.__say__("cp -r#{preserve ? "p" : ""} #{FileUtils.__list__(src).join(" ")} #{dest}") if verbose
    return if noop
    FileUtils.__pairs__(src, dest).each do |s, d|
      raise ArgumentError, "cannot copy directory #{s} to itself #{d}" if File.directory?(s) &&
        File.expand_path(d).start_with?(File.expand_path(s) + "/")
      copy_entry(s, d, preserve, !dereference_root, remove_destination)
    end
  end

  def copy_entry(src, dest, preserve = false, dereference_root = false, remove_destination = false)
    File.delete(dest) if remove_destination && File.exist?(dest) && !File.directory?(dest)
    if File.symlink?(src) && !dereference_root
      File.symlink(File.readlink(src), dest)
    elsif File.directory?(src)
      Dir.mkdir(dest) unless File.directory?(dest)
      Dir.children(src).each do |name|
        copy_entry(File.join(src, name), File.join(dest, name), preserve, false, remove_destination)
      end
    else
      copy_file(src, dest)
    end
  end

  def mv(src, dest, force: nil, noop: nil, verbose: nil, secure: nil)
    FileUtils.__say__("mv#{force ? " -f" : ""} #{FileUtils.__list__(src).join(" ")} #{dest}") if verbose
    return if noop
    FileUtils.__pairs__(src, dest).each do |s, d|
      begin
        raise ArgumentError, "same file: #{s} and #{d}" if FileUtils.__same__(s, d)
        begin
          File.rename(s, d)
        rescue Errno::EXDEV
          copy_entry(s, d)
          FileUtils.__remove_tree__(s)
        end
      rescue SystemCallError => e
        raise e unless force
      end
    end
  end

  def ln_s(src, dest, force: nil, noop: nil, verbose: nil, relative: false, target_directory: true)
    FileUtils.__say__("ln -s#{force ? "f" : ""} #{FileUtils.__list__(src).join(" ")} #{dest}") if verbose
    return if noop
    FileUtils.__pairs__(src, dest).each do |s, d|
      File.delete(d) if force && (File.symlink?(d) || File.file?(d))
      File.symlink(s, d)
    end
  end

  def ln_sf(src, dest, noop: nil, verbose: nil)
    ln_s(src, dest, force: true, noop: noop, verbose: verbose)
  end

  def ln(src, dest, force: nil, noop: nil, verbose: nil)
    FileUtils.__say__("ln#{force ? " -f" : ""} #{FileUtils.__list__(src).join(" ")} #{dest}") if verbose
    return if noop
    unless File.respond_to?(:link)
      raise NotImplementedError, "link() function is unimplemented on this machine"
    end
    FileUtils.__pairs__(src, dest).each do |s, d|
      File.delete(d) if force && File.file?(d)
      File.link(s, d)
    end
  end

  def touch(list, noop: nil, verbose: nil, mtime: nil, nocreate: nil)
    list = FileUtils.__list__(list)
    FileUtils.__say__("touch #{nocreate ? "-c " : ""}#{mtime ? mtime.strftime("-t %Y%m%d%H%M.%S ") : ""}#{list.join(" ")}") if verbose
    return if noop
    list.each do |path|
      if !File.exist?(path)
        raise Errno::ENOENT, path if nocreate   # as CRuby: -c does not make it, and says so
        File.open(path, "a") {}
      elsif File.respond_to?(:utime)
        t = mtime || Time.now
        File.utime(t, t, path)
      elsif File.file?(path)
        FileUtils.__rewrite_first_byte__(path)
      end
    end
  end

  # Brings path's mtime to now without File.utime and without changing its bytes.
  def self.__rewrite_first_byte__(path)
    File.open(path, "r+b") do |f|
      byte = f.read(1)
      if byte
        f.seek(0)
        f.write(byte)
      else
        File.open(path, "wb") {}
      end
    end
  end

  def chmod(mode, list, noop: nil, verbose: nil)
    list = FileUtils.__list__(list)
    FileUtils.__say__(format("chmod %o %s", mode, list.join(" "))) if verbose
    return if noop
    list.each { |path| File.chmod(mode, path) }
  end

  def chmod_R(mode, list, noop: nil, verbose: nil, force: nil)
    list = FileUtils.__list__(list)
    FileUtils.__say__(format("chmod -R%s %o %s", force ? "f" : "", mode, list.join(" "))) if verbose
    return if noop
    list.each { |path| FileUtils.__walk__(path) { |p| File.chmod(mode, p) } }
  end

  def self.__walk__(path, &block)
    yield path
    return if File.symlink?(path) || !File.directory?(path)
    Dir.children(path).each { |name| __walk__(File.join(path, name), &block) }
  end

  def compare_file(a, b)
    return false unless File.size(a) == File.size(b)
    File.open(a, "rb") do |fa|
      File.open(b, "rb") do |fb|
        loop do
          ca = fa.read(CHUNK)
          cb = fb.read(CHUNK)
          return false unless ca == cb
          return true if ca.nil?
        end
      end
    end
  end

  def compare_stream(a, b)
    loop do
      ca = a.read(CHUNK)
      cb = b.read(CHUNK)
      return false unless ca == cb
      return true if ca.nil?
    end
  end

  def uptodate?(new, old_list)
    return false unless File.exist?(new)
    new_time = File.open(new) { |f| f.mtime }
    FileUtils.__list__(old_list).all? do |old|
      !File.exist?(old) || new_time > File.open(old) { |f| f.mtime }
    end
  end

  def install(src, dest, mode: nil, noop: nil, verbose: nil, preserve: nil, owner: nil, group: nil)
    FileUtils.__say__("install -c#{mode ? format(" -m %o", mode) : ""} #{FileUtils.__list__(src).join(" ")} #{dest}") if verbose
    return if noop
    FileUtils.__pairs__(src, dest).each do |s, d|
      next if File.exist?(d) && compare_file(s, d)
      File.delete(d) if File.exist?(d)
      copy_file(s, d)
      File.chmod(mode, d) if mode
    end
  end

  alias getwd pwd
  alias chdir cd
  alias makedirs mkdir_p
  alias mkpath mkdir_p
  alias rmtree rm_rf
  alias remove rm
  alias safe_unlink rm_f
  alias copy cp
  alias move mv
  alias symlink ln_s
  alias link ln
  alias identical? compare_file
  alias cmp compare_file

  COMMANDS = %i(pwd getwd cd chdir mkdir mkdir_p makedirs mkpath rmdir rm remove rm_f safe_unlink
                rm_r rm_rf rmtree remove_entry remove_entry_secure remove_file remove_dir cp copy
                copy_file cp_r copy_entry mv move ln_s symlink ln_sf ln link touch chmod chmod_R
                compare_file identical? cmp compare_stream uptodate? install).freeze
  private_constant :COMMANDS
  module_function(*COMMANDS)

  # The introspection CRuby's FileUtils offers (rake wraps every command taking verbose: or noop:
  # through it): names as Strings, a command's options are its keywords.
  def self.commands = COMMANDS.map(&:to_s)
  def self.options = commands.flat_map { |c| options_of(c) }.uniq

  def self.options_of(mid)
    raise ArgumentError, "no such method: #{mid}" unless COMMANDS.include?(mid.to_sym)
    method(mid).parameters.filter_map { |type, name| name.to_s if type == :key }
  end

  def self.have_option?(mid, opt) = options_of(mid).include?(opt.to_s)
  def self.collect_method(opt) = commands.select { |c| options_of(c).include?(opt.to_s) }

  # The same methods with verbose: true (Verbose), noop: true (NoWrite), or both (DryRun), for
  # `include FileUtils::Verbose` or FileUtils::DryRun.mkdir_p(...), as CRuby has them.
  OPTION_METHODS = %i(cd chdir mkdir mkdir_p makedirs mkpath rmdir rm remove rm_f safe_unlink rm_r
                      rm_rf rmtree cp copy cp_r mv move ln_s symlink ln_sf ln link touch chmod
                      chmod_R install)

  def self.__options_module__(forced)
    mod = Module.new
    OPTION_METHODS.each do |name|
      mod.__send__(:define_method, name) do |*args, **kw, &blk|
        kw = kw.merge(forced)
        kw.delete(:noop) if name == :cd || name == :chdir
        FileUtils.__send__(name, *args, **kw, &blk)
      end
    end
    (FileUtils.singleton_methods - OPTION_METHODS).each do |name|
      next if name.to_s.start_with?("__")
      mod.__send__(:define_method, name) { |*args, **kw, &blk| FileUtils.__send__(name, *args, **kw, &blk) }
    end
    mod.__send__(:module_function, *mod.instance_methods(false))
    mod
  end

  Verbose = __options_module__(verbose: true)
  NoWrite = __options_module__(noop: true)
  DryRun = __options_module__(noop: true, verbose: true)
end
