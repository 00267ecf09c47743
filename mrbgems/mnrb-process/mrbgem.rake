MRuby::Gem::Specification.new('mnrb-process') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb developers'
  spec.summary = "CRuby's Process.fork/wait/spawn/kill, Process::Status, system, backticks, Signal.trap on mnrb's runtime"
  spec.add_dependency('mnrb-thread')
  spec.add_dependency('mnrb-io')
  spec.add_dependency('mnrb-compat')
  spec.cc.include_paths << "#{dir}/../../core/include"
end
