# mnrb-require: CRuby's require, require_relative, load, $LOAD_PATH and $LOADED_FEATURES on mruby's
# compiler. C (src/) reads, compiles and runs one file and finds the file a caller is in; Ruby
# (mrblib/) resolves features, keeps them loaded once and serialises concurrent loads.
MRuby::Gem::Specification.new('mnrb-require') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's require, require_relative, load, __dir__, $LOAD_PATH and $LOADED_FEATURES"
  spec.add_dependency 'mruby-compiler', core: 'mruby-compiler'
  spec.add_dependency 'mruby-io',       core: 'mruby-io'          # File.expand_path, realpath, file?
  spec.add_dependency 'mnrb-compat'                                # ENV (RUBYLIB), warn
  spec.add_dependency 'mnrb-thread'                                # Mutex, ConditionVariable: one load per file
end
