# mnrb-stdlib: the parts of CRuby's standard library that concurrency scripts require and that are
# small enough to be built in: Timeout, Etc, RbConfig, StringIO. Each is one file named after it and is
# provided to `require` (mnrb-require) as already loaded.
MRuby::Gem::Specification.new('mnrb-stdlib') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's timeout (one shared watcher thread), etc, rbconfig and stringio"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-thread'                                # Timeout: Thread#raise, Mutex
  spec.add_dependency 'mnrb-compat'                                # Process.clock_gettime
  spec.add_dependency 'mruby-io',   core: 'mruby-io'               # RbConfig.ruby: File.readlink
  spec.cc.include_paths << "#{dir}/../../core/include"             # mn_cpu_count
end
