# mnrb-compat: the parts of CRuby 3.1's core library that concurrency scripts use and mruby 3.1
# lacks (Process clocks, sum and Integer helpers, exit/at_exit/abort/warn, Time#strftime,
# File.basename's suffix, min_by/max_by by <=>). Benchmark and pp are
# mnrb-stdlib's (loaded at require).
# Thread-related classes live in mnrb-thread, not here.
MRuby::Gem::Specification.new('mnrb-compat') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = 'CRuby 3.1 compatibility: Process, sum, exit/at_exit, warn'
  spec.add_dependency 'mruby-struct',     core: 'mruby-struct'      # Process::Tms
  spec.add_dependency 'mruby-io',         core: 'mruby-io'          # $stdout, $stderr
  spec.add_dependency 'mruby-sprintf',    core: 'mruby-sprintf'     # Kernel#printf (output.rb)
  spec.add_dependency 'mruby-string-ext', core: 'mruby-string-ext'  # ljust, rjust, lines
  spec.add_dependency 'mruby-math',       core: 'mruby-math'        # Math::DomainError
  spec.add_dependency 'mruby-class-ext',  core: 'mruby-class-ext'
  spec.add_dependency 'mruby-enum-ext',   core: 'mruby-enum-ext'    # min_by/max_by (enum_by.rb)
  spec.add_dependency 'mruby-array-ext',  core: 'mruby-array-ext'   # array_fill.c replaces its fill
  spec.add_dependency 'mruby-time',       core: 'mruby-time'        # Time#strftime (time.rb)
  spec.add_dependency 'mruby-set',        core: 'mruby-set'         # set.rb reopens Set
  spec.add_dependency 'mruby-data',       core: 'mruby-data'        # data.rb, data.c: Data's storage
  spec.add_dependency 'mruby-dir',        core: 'mruby-dir'         # dir.rb, dir.c reopen Dir
  spec.linker.libraries << 'crypt'                                  # String#crypt (libxcrypt)
  spec.add_test_dependency 'mruby-enumerator', core: 'mruby-enumerator'
  spec.add_test_dependency 'mruby-eval',       core: 'mruby-eval'        # code with line numbers
end
