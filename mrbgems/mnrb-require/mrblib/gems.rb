# Pure-Ruby gems unpacked in RubyGems' layout, found as RubyGems finds them:
#
#   $GEM_HOME/gems/<name>-<version>/lib        (then each directory of $GEM_PATH, colon-separated)
#
# - `gem "foo", ">= 1.2", "< 2"` activates the highest installed version of foo meeting the
#   requirements: its lib directory goes on $LOAD_PATH (true; false when already active). A
#   missing gem raises Gem::MissingSpecError (a LoadError), another version already active
#   Gem::LoadError, with RubyGems' messages.
# - `require "foo"` that finds nothing on $LOAD_PATH activates the highest version of the gem
#   whose lib has foo.rb and loads it, as RubyGems' require does; `gem_original_require` is the
#   require that never looks in gems.
# - Only lib is a gem's require path (what nearly every gemspec says); gemspecs are not read,
#   so a gem's dependencies are found when its code requires them, not when it is activated.
#   Gems with C extensions cannot load (mnrb loads no .so).
#
# Requirements are RubyGems': "= v", "!= v", "> v", ">= v", "< v", "<= v", "~> v" (pessimistic:
# ">= v" and below the next release of v's second-to-last segment); versions compare segment by
# segment, numbers as numbers, a letter segment marks a prerelease (1.0.a < 1.0).
module Gem
  class LoadError < ::LoadError
    def name = @name
    def name=(v)
      @name = v
    end
    def requirement = @requirement
    def requirement=(v)
      @requirement = v
    end
  end

  class MissingSpecError < Gem::LoadError; end
  class MissingSpecVersionError < MissingSpecError; end

  # Version strings compared as RubyGems compares them (Gem::Version.new(RUBY_VERSION) >= ...).
  class Version
    include Comparable

    def self.correct?(version)
      !version.nil? && MNRB::Gems.version_string?(version.to_s.strip)
    end

    def initialize(version)
      v = version.to_s.strip
      raise ArgumentError, "Malformed version number string #{version}" unless Version.correct?(v)
      @version = v
    end

    def <=>(other)
      other = Version.new(other) if other.is_a?(String)
      return nil unless other.is_a?(Version)
      MNRB::Gems.compare(@version, other.to_s)
    end

    def segments
      MNRB::Gems.segments(@version)
    end

    def prerelease?
      @version.each_char.any? { |c| ("a".."z").include?(c.downcase) }
    end

    def to_s
      @version
    end
    alias version to_s

    def inspect
      "Gem::Version.new(#{@version.inspect})"
    end

    def hash
      segments.hash
    end

    def eql?(other)
      other.is_a?(Version) && (self <=> other) == 0
    end
  end

  class << self
    # Directories searched for gems: GEM_PATH's, then GEM_HOME (RubyGems' order).
    def path
      dirs = []
      (ENV["GEM_PATH"] || "").split(":").each { |d| dirs << d unless d.empty? || dirs.include?(d) }
      home = dir
      dirs << home if home && !dirs.include?(home)
      dirs
    end

    # GEM_HOME, or nil (mnrb has no default gem directory)
    def dir
      home = ENV["GEM_HOME"]
      home && !home.empty? ? home : nil
    end

    # Files matching glob (with or without ".rb") in $LOAD_PATH's directories (check_load_path)
    # and in the installed gems' lib directories, as RubyGems' find_files (minitest finds its
    # plugins so); find_latest_files looks only at each gem's newest version.
    def find_files(glob, check_load_path = true) = MNRB::Gems.find_files(glob, check_load_path, false)
    def find_latest_files(glob, check_load_path = true) = MNRB::Gems.find_files(glob, check_load_path, true)

    def win_platform? = false
    def ruby_version = Gem::Version.new(RUBY_VERSION)
  end
end

module MNRB
  module Gems
    OPS = %w(= != > >= < <= ~>)
    # name => version (a String) of each gem activated in this state
    ACTIVATED = {}

    class << self
      # Kernel#gem
      def activate(name, requirements)
        name = name.to_s
        reqs = parse_requirements(requirements)
        active = ACTIVATED[name]
        return false if active && satisfied?(active, reqs)
        found = installed(name).find { |version, _| satisfied?(version, reqs) }
        missing(name, reqs) unless found
        if active
          e = Gem::LoadError.new("can't activate #{name}-#{found[0]}, already activated #{name}-#{active}")
          e.name = name
          e.requirement = requirement_text(reqs)
          raise e
        end
        add(name, *found)
        true
      end

      # For require: activates the newest gem whose lib holds `file` (not one of an active gem's
      # other versions); true if one was activated.
      def activate_for(file)
        each_gem_dir do |name, version, dir|
          next if ACTIVATED.key?(name)
          next unless File.file?(File.join(dir, "lib", file))
          newest = installed(name).find { |_, d| File.file?(File.join(d, "lib", file)) }
          add(name, *newest)
          return true
        end
        false
      end

      # [[version, dir]...] of `name`'s installed versions, newest first.
      def installed(name)
        found = []
        each_gem_dir do |n, version, dir|
          found << [version, dir] if n == name && found.none? { |v, _| v == version }
        end
        found.sort { |a, b| compare(b[0], a[0]) }
      end

      def compare(a, b)
        sa = segments(a)
        sb = segments(b)
        n = sa.size > sb.size ? sa.size : sb.size
        n.times do |i|
          x = sa[i] || 0
          y = sb[i] || 0
          next if x == y
          return x <=> y if x.class == y.class
          return x.is_a?(String) ? -1 : 1   # a prerelease letter sorts before any number
        end
        0
      end

      def version_string?(v)
        return false if v.empty? || !("0".."9").include?(v[0])
        v.each_char.all? { |c| c == "." || ("0".."9").include?(c) || ("a".."z").include?(c.downcase) }
      end

      # "1.10.0.rc1" -> [1, 10, 0, "rc", 1]
      def segments(v)
        out = []
        v.split(".").each do |part|
          cur = ""
          part.each_char do |c|
            if !cur.empty? && digit?(c) != digit?(cur[-1])
              out << seg(cur)
              cur = ""
            end
            cur += c
          end
          out << seg(cur) unless cur.empty?
        end
        out.pop while out.size > 1 && out[-1] == 0
        out
      end

      def find_files(glob, check_load_path, latest_only)
        dirs = check_load_path ? $LOAD_PATH.map(&:to_s) : []
        gems = []
        each_gem_dir { |name, version, dir| gems << [name, version, File.join(dir, "lib")] }
        if latest_only
          newest = {}
          gems.each { |n, v, _| newest[n] = v if !newest.key?(n) || compare(v, newest[n]) > 0 }
          gems = gems.select { |n, v, _| newest[n] == v }
        end
        dirs.concat(gems.map { |g| g[2] })
        dirs.uniq.flat_map { |d| Dir.glob("#{glob}{,.rb}", base: d).map { |f| File.join(d, f) } }.uniq
      end

      private

      def add(name, version, dir)
        ACTIVATED[name] = version
        lib = File.join(dir, "lib")
        $LOAD_PATH << lib unless $LOAD_PATH.include?(lib)
      end

      # Yields name, version and directory of every gem unpacked in Gem.path.
      def each_gem_dir
        Gem.path.each do |root|
          gems = File.join(root, "gems")
          next unless File.directory?(gems)
          Dir.children(gems).sort.each do |entry|
            dash = entry.rindex("-")
            next unless dash && dash > 0
            version = entry[dash + 1, entry.size]
            next unless version_string?(version)
            yield entry[0, dash], version, File.join(gems, entry)
          end
        end
      end

      def digit?(c)
        ("0".."9").include?(c)
      end

      def seg(s)
        digit?(s[0]) ? s.to_i : s
      end

      def parse_requirements(list)
        list = list.flatten.map(&:to_s)
        list = [">= 0"] if list.empty?
        list.map do |r|
          r = r.strip
          op = OPS.select { |o| r.start_with?(o) }.max_by(&:size) || "="
          v = r[op.size, r.size].strip if r.start_with?(op)
          v ||= r
          unless version_string?(v)
            raise ArgumentError, "Illformed requirement [#{r.inspect}]"
          end
          [op, v]
        end
      end

      def satisfied?(version, reqs)
        reqs.all? do |op, v|
          c = compare(version, v)
          case op
          when "=" then c == 0
          when "!=" then c != 0
          when ">" then c > 0
          when ">=" then c >= 0
          when "<" then c < 0
          when "<=" then c <= 0
          when "~>" then c >= 0 && compare(version, bump(v)) < 0
          end
        end
      end

      # "~> 1.2.3": below 1.3; "~> 1.2": below 2
      def bump(v)
        segs = segments(v).take_while { |s| s.is_a?(Integer) }
        segs.pop if segs.size > 1
        segs[-1] += 1
        segs.join(".")
      end

      def requirement_text(reqs)
        reqs.map { |op, v| "#{op} #{v}" }.join(", ")
      end

      def missing(name, reqs)
        any = !installed(name).empty?
        msg = "Could not find '#{name}' (#{requirement_text(reqs)})"
        msg += any ? " - did find: [#{installed(name).map { |v, _| "#{name}-#{v}" }.join(",")}]" : " among #{count} total gem(s)"
        msg += "\nChecked in 'GEM_PATH=#{Gem.path.join(":")}' , execute `gem env` for more information"
        e = (any ? Gem::MissingSpecVersionError : Gem::MissingSpecError).new(msg)
        e.name = name
        e.requirement = requirement_text(reqs)
        raise e
      end

      def count
        n = 0
        each_gem_dir { n += 1 }
        n
      end
    end
  end
end

module Kernel
  private

  def gem(name, *requirements)
    MNRB::Gems.activate(name, requirements)
  end

  def gem_original_require(feature)
    MNRB::Loader.require(feature, false)
  end
end
