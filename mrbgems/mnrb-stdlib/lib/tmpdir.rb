# require "tmpdir": Dir.tmpdir and Dir.mktmpdir as CRuby's tmpdir library has them.
#
# Dir.tmpdir: the first of $TMPDIR, $TMP, $TEMP, /tmp and "." that is a directory, expanded
# (CRuby also skips directories it cannot write to and warns about world-writable ones without
# the sticky bit; mnrb has no File.writable? to ask).
# Dir.mktmpdir(prefix_suffix = "d", parent = Dir.tmpdir): makes a new directory (mode 0700) named
# "#{prefix}YYYYMMDD-PID-RANDOM#{suffix}" and returns its path; with a block, yields the path,
# removes the directory and everything under it afterwards (also when the block raises, and not
# following symlinks), and returns the block's value.
class Dir
  def self.tmpdir
    [ENV["TMPDIR"], ENV["TMP"], ENV["TEMP"], "/tmp", "."].each do |dir|
      next if dir.nil? || dir.empty?
      dir = File.expand_path(dir)
      return dir if File.directory?(dir)
    end
    raise ArgumentError, "could not find a temporary directory"
  end

  def self.mktmpdir(prefix_suffix = nil, parent = nil, **_options)
    path = Dir.__tmpdir_create(prefix_suffix, parent || Dir.tmpdir)
    return path unless block_given?
    begin
      yield path.dup
    ensure
      Dir.__tmpdir_remove(path) if File.directory?(path)
    end
  end

  def self.__tmpdir_create(prefix_suffix, parent)
    prefix, suffix =
      case prefix_suffix
      when nil then ["d", ""]
      when String then [prefix_suffix, ""]
      when Array then [prefix_suffix[0].to_s, prefix_suffix[1].to_s]
      else raise ArgumentError, "unexpected prefix_suffix: #{prefix_suffix.inspect}"
      end
    stamp = Time.now.strftime("%Y%m%d")
    attempt = 0
    begin
      tail = attempt == 0 ? "" : "-#{attempt}"
      path = File.join(parent, "#{prefix}#{stamp}-#{Process.pid}-#{rand(0x100000000).to_s(36)}#{tail}#{suffix}")
      Dir.mkdir(path, 0700)
      path
    rescue Errno::EEXIST
      attempt += 1
      retry if attempt < 100
      raise
    end
  end

  # Removes path and what is under it; a symlink is removed, never followed.
  def self.__tmpdir_remove(path)
    if File.symlink?(path) || !File.directory?(path)
      File.delete(path)
    else
      Dir.children(path).each { |name| Dir.__tmpdir_remove(File.join(path, name)) }
      Dir.rmdir(path)
    end
  end
end
