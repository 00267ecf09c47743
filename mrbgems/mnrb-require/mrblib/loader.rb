# require, load and the load path, as CRuby 3.1 has them.
#
# - `require 'x'` loads x.rb found on $LOAD_PATH once: a file is known by its absolute real path,
#   which goes into $LOADED_FEATURES when its code has run without raising. Names starting with
#   "/", "./", "../" or "~" are paths (relative ones from the current directory).
# - Features mnrb has built in (MNRB::Loader.provide, provided.rb) are always loaded: require
#   returns false for them, whatever $LOAD_PATH holds. Those CRuby users reach only through
#   require (socket, timeout, net/http...: mnrb_feature.h) load at their first require, which
#   returns true, and in a ractor created later before its code runs (replay).
# - The thread that calls require loads the file; other threads keep running. A thread requiring a
#   file another thread is loading waits until that load ends, then returns false (or loads it
#   itself if the load raised), as CRuby's load lock does. A thread requiring a file it is itself
#   loading (circular require) gets false at once, with CRuby's warning under $VERBOSE.
# - `load` runs a file every time and never touches $LOADED_FEATURES.
module MNRB
  module Loader
    # Guards LOADING and the check-then-mark of $LOADED_FEATURES; never held while a file runs.
    LOCK = Mutex.new
    # realpath => the load in progress: [thread loading it, ConditionVariable its waiters wait on]
    LOADING = {}
    # feature name without extension => its $LOADED_FEATURES entry, for what mnrb has built in
    BUILTIN = {}
    # the features loaded at their first require (mnrb_feature_on_demand; on_demand_feature(name)
    # gives [$LOADED_FEATURES entry, features it requires, its code]) loaded in this state, each
    # after those it requires
    LOADED_ON_DEMAND = []
    # methods whose frames a LoadError's backtrace leaves out
    LOADER_METHODS = %i(require require_relative load require_path require_on_demand run_feature claim noted
                        cannot_load find_feature find_file search_load_path synchronize loop
                        warn_circular gem_original_require)

    class << self
      # gems: when nothing on $LOAD_PATH has the feature, activate the gem that has it (gems.rb)
      def require(feature, gems = true)
        name = path_string(feature)
        unless explicit_path?(name)
          bare = strip_ext(name)
          return false if builtin?(bare)
          return noted(require_on_demand(bare), bare) if on_demand_feature(bare)
        end
        path = find_feature(name)
        if !path && gems && !explicit_path?(name) && MNRB::Gems.activate_for(rb_name(name))
          path = find_feature(name)
        end
        path or cannot_load(name)
        noted(require_path(path), path)
      end

      # A feature loaded in a non-main ractor is listed for the other heaps (mnrb-ractor's
      # required_features.c: CRuby 4.0 loads it in the main ractor, for all)
      def noted(loaded, name)
        MNRB.ractor_required(name) if loaded && MNRB.respond_to?(:ractor_required)
        loaded
      end

      # $LOAD_PATH.resolve_feature_path: [:rb, path] for the file require would load, nil if none.
      # A feature mnrb has built in has no file: its $LOADED_FEATURES entry stands for the path
      # ([:rb, "json.rb"], [:so, "socket.so"]), the name `require` records for it.
      def resolve_feature_path(feature)
        name = path_string(feature)
        unless explicit_path?(name)
          bare = strip_ext(name)
          entry = BUILTIN[bare] || on_demand_feature(bare)&.first
          entry ||= conditional(bare)
          return [File.extname(entry) == ".so" ? :so : :rb, entry] if entry
        end
        file = rb_name(name)
        path = explicit_path?(name) ? existing(File.expand_path(file)) : search_load_path(file)
        path && [:rb, File.expand_path(path)]
      end

      def require_relative(feature, caller_file)
        name = path_string(feature)
        require(File.expand_path(name, File.expand_path(dir_of(caller_file))))
      end

      def load(file, wrap)
        name = path_string(file)
        path = find_file(name) or cannot_load(name)
        exec_file(path, wrap)
        true
      end

      # Marks a built-in feature as loaded (CRuby's rb_provide): gems call it for what they define.
      def provide(feature, entry = "#{feature}.rb")
        BUILTIN[feature] = entry
        $LOADED_FEATURES << entry unless $LOADED_FEATURES.include?(entry)
        true
      end

      # In a new ractor's state, before it runs anything (and from its creator's thread, so with
      # no lock): loads what the creator had loaded on demand, in the creator's order.
      def replay(features)
        features.each do |feature|
          entry, requires, code = on_demand_feature(feature)
          next if !entry || BUILTIN.key?(feature)
          replay(requires)
          run_feature(code)
          loaded_on_demand(feature, entry)
          $LOADED_FEATURES << entry unless $LOADED_FEATURES.include?(entry)
        end
      end

      def cannot_load(name)
        e = LoadError.new("cannot load such file -- #{name}")
        e.instance_variable_set(:@path, name)
        e.set_backtrace(backtrace_from_require(caller))
        raise e
      end

      # __dir__ of code from `file`: its real directory ("." for -e, as CRuby 3.1 says).
      def dir_of(file)
        File.dirname(File.exist?(file) ? File.realpath(file) : file)
      end

      private

      # Runs the file at `path` (a real path) unless it is loaded or being loaded.
      def require_path(path)
        return false unless claim(path)
        loaded = false
        begin
          exec_file(path, false)
          loaded = true
        ensure
          release(path, loaded)
        end
        true
      end

      # A built-in feature's first require: as a file's (one thread loads it, others wait).
      def require_on_demand(feature)
        entry, requires, code = on_demand_feature(feature)
        return false unless claim(entry)
        loaded = false
        begin
          requires.each { |f| require(f) }
          run_feature(code)
          loaded_on_demand(feature, entry)
          loaded = true
        ensure
          release(entry, loaded)
        end
        true
      end

      def loaded_on_demand(feature, entry)
        BUILTIN[feature] = entry
        LOADED_ON_DEMAND << feature
      end

      # true if this thread is now the one loading `path`; false if it is loaded (or this thread
      # is loading it already: circular require).
      def claim(path)
        LOCK.synchronize do
          loop do
            return false if $LOADED_FEATURES.include?(path)
            owner, done = LOADING[path]
            break unless owner
            break unless owner.alive?   # its loader is gone without releasing (a forked child)
            if owner == Thread.current
              warn_circular(path) if $VERBOSE
              return false
            end
            done.wait(LOCK)
          end
          LOADING[path] = [Thread.current, ConditionVariable.new]
          true
        end
      end

      def release(path, loaded)
        LOCK.synchronize do
          $LOADED_FEATURES << path if loaded && !$LOADED_FEATURES.include?(path)
          _, done = LOADING.delete(path)
          done.broadcast
        end
      end

      # The real path of the file `require name` loads, or nil.
      def find_feature(name)
        file = rb_name(name)
        path = explicit_path?(name) ? existing(File.expand_path(file)) : search_load_path(file)
        path && File.realpath(path)
      end

      def rb_name(name)
        File.extname(name) == ".rb" ? name : "#{name}.rb"
      end

      # The file `load name` runs: a path as given, else the first on $LOAD_PATH, else from the
      # current directory (CRuby's order). Names it as CRuby's __FILE__ does.
      def find_file(name)
        return existing(File.expand_path(name)) if explicit_path?(name)
        search_load_path(name) || existing(name)
      end

      def search_load_path(file)
        $LOAD_PATH.each do |dir|
          path = existing(File.expand_path(file, path_string(dir)))
          return path if path
        end
        nil
      end

      def existing(path)
        File.file?(path) ? path : nil
      end

      def explicit_path?(name)
        name.start_with?("/", "./", "../", "~") || name == "." || name == ".."
      end

      def strip_ext(name)
        ext = File.extname(name)
        ext == ".rb" || ext == ".so" ? name[0, name.size - ext.size] : name
      end

      def builtin?(feature)
        return true if BUILTIN.key?(feature)
        entry = conditional(feature)
        return false unless entry
        provide(feature, entry)
      end

      # CRuby's warning, at the place of the require that closes the cycle.
      def warn_circular(path)
        where = backtrace_from_require(caller)[0]
        where = where ? where.split(":in ", 2)[0] + ": " : ""
        warn "#{where}warning: loading in progress, circular require considered harmful - #{path}"
      end

      # The loader's own frames (built in, so they show their caller's place) folded into one
      # "in require" frame, as CRuby's report starts at require; none without a place (-r).
      def backtrace_from_require(bt)
        k = bt.index { |l| !LOADER_METHODS.include?(l.split(":in ", 2)[1].to_s.to_sym) } || bt.size
        bt[(k > 0 ? k - 1 : 0), bt.size].reject { |l| l.start_with?("(unknown)") }
      end

      # String, or what to_path / to_str give, as CRuby converts require's argument.
      def path_string(obj)
        return obj if obj.is_a?(String)
        s = if obj.respond_to?(:to_path) then obj.to_path
            elsif obj.respond_to?(:to_str) then obj.to_str
            end
        return s if s.is_a?(String)
        what = obj.nil? ? "nil" : obj == true ? "true" : obj == false ? "false" : obj.class.to_s
        raise TypeError, "no implicit conversion of #{what} into String"
      end
    end
  end
end

class LoadError
  # The feature that could not be loaded.
  def path = @path
end

module Kernel
  def require(feature)
    MNRB::Loader.require(feature)
  end

  def load(file, wrap = false)
    MNRB::Loader.load(file, wrap)
  end
end

# $LOAD_PATH: RUBYLIB's directories (the command line puts -I's in front). $: and $" are the
# same arrays as $LOAD_PATH and $LOADED_FEATURES.
$LOAD_PATH = (ENV['RUBYLIB'] || "").split(":").reject(&:empty?)
$: = $LOAD_PATH
$LOADED_FEATURES = []
def $LOAD_PATH.resolve_feature_path(feature)
  MNRB::Loader.resolve_feature_path(feature)
end
$" = $LOADED_FEATURES
