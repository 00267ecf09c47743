# require "find": Find.find walks file trees depth first, as CRuby's: each path given, then, for a
# directory (not followed through a symlink), its entries in sorted order, each under its
# directory's name. Find.prune inside the block skips the current directory's contents. Entries
# that vanish or cannot be read are skipped (ignore_error: false raises instead).
module Find
  VERSION = "0.2.0"

  # The errors a walk meets when the tree changes under it or a directory is closed to it.
  SKIPPED = [Errno::ENOENT, Errno::EACCES, Errno::ENOTDIR, Errno::ELOOP, Errno::ENAMETOOLONG,
             Errno::EINVAL].freeze
  private_constant :SKIPPED

  def find(*paths, ignore_error: true)
    unless block_given?
      # (mnrb's enum_for would pass the keyword on as a Hash)
      return Enumerator.new { |y| Find.find(*paths, ignore_error: ignore_error) { |f| y << f } }
    end
    paths = paths.map do |p|
      p = p.to_path if !p.is_a?(String) && p.respond_to?(:to_path)
      raise Errno::ENOENT, p unless File.exist?(p)
      p.dup
    end
    paths.each do |root|
      stack = [root]
      until stack.empty?
        path = stack.pop
        catch(:prune) do
          yield path.dup
          begin
            next unless File.lstat(path).directory?
            names = Dir.children(path).sort
          rescue *SKIPPED
            raise unless ignore_error
            next
          end
          names.reverse_each { |n| stack.push(File.join(path, n)) }
        end
      end
    end
    nil
  end

  # Skips the contents of the directory the block was given (or the rest of nothing, for a file).
  def prune
    throw :prune
  end

  module_function :find, :prune
end
