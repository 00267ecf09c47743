MRuby::Gem::Specification.new('mnrb-thread') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb developers'
  spec.summary = "CRuby's Thread, Mutex, ConditionVariable, Queue, SizedQueue and sleep on mnrb's M:N scheduler"
  spec.add_dependency('mruby-fiber', core: 'mruby-fiber')
  spec.add_dependency('mruby-error', core: 'mruby-error')
  spec.add_dependency('mruby-time', core: 'mruby-time')
  spec.add_dependency('mnrb-compat')
  spec.cc.include_paths << "#{dir}/../../core/include"
  spec.linker.libraries << 'pthread'
  # the core runtime, built by the Makefile for this variant (binaries linked by mruby need it)
  spec.linker.flags_after_libraries << File.expand_path("../../build/#{spec.build.name}/libmnrb-core.a", dir)
end
