MRuby::Gem::Specification.new('mnrb-io') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb developers'
  spec.summary = "Managed I/O: mruby-io's and mruby-socket's blocking calls park the Ruby thread in mnrb's event loop, or run without the GVL; Errno and SystemCallError"
  spec.add_dependency('mruby-io', core: 'mruby-io')
  spec.add_dependency('mruby-socket', core: 'mruby-socket')
  spec.add_dependency('mnrb-thread')
  spec.cc.include_paths << "#{dir}/../../core/include"
end
