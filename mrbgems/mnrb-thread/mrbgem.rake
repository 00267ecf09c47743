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
end
