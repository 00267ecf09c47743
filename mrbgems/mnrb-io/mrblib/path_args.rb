# Path arguments as CRuby takes them: a String, or an object with to_path (a Pathname, a File, a
# Dir), or else one with to_str. mruby's methods below accept Strings only; each is wrapped so that
# its path arguments are converted first, then the original runs (aliased as __mnrb_pathless_*).
# Plain defs and aliases, not define_method: built-in ones cost a fresh ractor no object
# (ractor_lean_state_test.rb). Each class body below is one proc every ractor keeps (its lazy
# methods' scope), hence `class << IO` rather than `class IO; class << self` (MNRB is
# mnrb-require's, a dependency of this gem).
module MNRB::PathArgs
  def self.path(x)
    return x if x.is_a?(String)
    return x.to_path if x.respond_to?(:to_path)
    x.respond_to?(:to_str) ? x.to_str : x
  end

  # File.join's parts: Arrays (nested too) are joined in place
  def self.join_parts(parts)
    parts.map { |a| a.is_a?(Array) ? join_parts(a) : path(a) }
  end

  def self.paths(args)
    args.map { |a| path(a) }
  end
end

class << IO
  alias __mnrb_pathless_read read
  alias __mnrb_pathless_readlines readlines
  alias __mnrb_pathless_foreach foreach
  alias __mnrb_pathless_write write
  alias __mnrb_pathless_binwrite binwrite

  def read(path, *a, **kw) = __mnrb_pathless_read(MNRB::PathArgs.path(path), *a, **kw)
  def readlines(path, *a, **kw) = __mnrb_pathless_readlines(MNRB::PathArgs.path(path), *a, **kw)
  def foreach(path, *a, **kw, &b) = __mnrb_pathless_foreach(MNRB::PathArgs.path(path), *a, **kw, &b)
  def write(path, *a, **kw) = __mnrb_pathless_write(MNRB::PathArgs.path(path), *a, **kw)
  def binwrite(path, *a, **kw) = __mnrb_pathless_binwrite(MNRB::PathArgs.path(path), *a, **kw)
end

# mruby-io's File.foreach hid IO.foreach: without a block it answered a File, not an Enumerator, and
# it took no separator, limit or chomp:.
class << File
  remove_method :foreach
end

class File
  alias __mnrb_pathless_initialize initialize
  def initialize(path, *a, **kw, &b) = __mnrb_pathless_initialize(MNRB::PathArgs.path(path), *a, **kw, &b)
end

class << File
  alias __mnrb_pathless_join join
  alias __mnrb_pathless_basename basename
  alias __mnrb_pathless_extname extname
  alias __mnrb_pathless_split split
  alias __mnrb_pathless_expand_path expand_path
  alias __mnrb_pathless_absolute_path absolute_path
  alias __mnrb_pathless_realpath realpath
  alias __mnrb_pathless_rename rename
  alias __mnrb_pathless_symlink symlink
  alias __mnrb_pathless_link link
  alias __mnrb_pathless_readlink readlink
  alias __mnrb_pathless_unlink unlink
  alias __mnrb_pathless_chmod chmod
  alias __mnrb_pathless_truncate truncate
  alias __mnrb_pathless_mkfifo mkfifo

  def join(*parts) = __mnrb_pathless_join(*MNRB::PathArgs.join_parts(parts))
  def basename(path, *a) = __mnrb_pathless_basename(MNRB::PathArgs.path(path), *a)
  def extname(path) = __mnrb_pathless_extname(MNRB::PathArgs.path(path))
  def split(path) = __mnrb_pathless_split(MNRB::PathArgs.path(path))
  def expand_path(*a) = __mnrb_pathless_expand_path(*MNRB::PathArgs.paths(a))
  def absolute_path(*a) = __mnrb_pathless_absolute_path(*MNRB::PathArgs.paths(a))
  def realpath(*a) = __mnrb_pathless_realpath(*MNRB::PathArgs.paths(a))
  def rename(from, to) = __mnrb_pathless_rename(MNRB::PathArgs.path(from), MNRB::PathArgs.path(to))
  def symlink(old, new) = __mnrb_pathless_symlink(MNRB::PathArgs.path(old), MNRB::PathArgs.path(new))
  def link(old, new) = __mnrb_pathless_link(MNRB::PathArgs.path(old), MNRB::PathArgs.path(new))
  def readlink(path) = __mnrb_pathless_readlink(MNRB::PathArgs.path(path))
  def unlink(*paths) = __mnrb_pathless_unlink(*MNRB::PathArgs.paths(paths))
  def delete(*paths) = __mnrb_pathless_unlink(*MNRB::PathArgs.paths(paths))
  def chmod(mode, *paths) = __mnrb_pathless_chmod(mode, *MNRB::PathArgs.paths(paths))
  def truncate(path, len) = __mnrb_pathless_truncate(MNRB::PathArgs.path(path), len)
  def mkfifo(path, *a) = __mnrb_pathless_mkfifo(MNRB::PathArgs.path(path), *a)
end

class << Dir
  alias __mnrb_pathless_mkdir mkdir
  alias __mnrb_pathless_exist? exist?
  alias __mnrb_pathless_chdir chdir
  alias __mnrb_pathless_rmdir rmdir
  alias __mnrb_pathless_glob glob

  def mkdir(path, *a) = __mnrb_pathless_mkdir(MNRB::PathArgs.path(path), *a)
  def exist?(path) = __mnrb_pathless_exist?(MNRB::PathArgs.path(path))
  def chdir(*a, &b) = __mnrb_pathless_chdir(*MNRB::PathArgs.paths(a), &b)
  def rmdir(path) = __mnrb_pathless_rmdir(MNRB::PathArgs.path(path))
  def unlink(path) = __mnrb_pathless_rmdir(MNRB::PathArgs.path(path))
  def delete(path) = __mnrb_pathless_rmdir(MNRB::PathArgs.path(path))

  def glob(pattern, *a, **kw, &b)
    kw[:base] = MNRB::PathArgs.path(kw[:base]) if kw.key?(:base)
    __mnrb_pathless_glob(pattern, *a, **kw, &b)
  end
end
