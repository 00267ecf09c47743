# mnrb-embed: the C API for programs that embed mnrb (include/mnrb.h): run code and files in the main
# ractor, start ractors from C. The runtime's lifecycle and blocking calls come from mnrb-thread.
MRuby::Gem::Specification.new('mnrb-embed') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb developers'
  spec.summary = 'one header for embedders: open the runtime, run Ruby, start ractors, call C without the GVL'
  spec.add_dependency 'mnrb-thread'
  spec.add_dependency 'mnrb-require'       # MNRB::Loader: code and files run as `load` runs them
  spec.add_dependency 'mnrb-ractor'
  spec.cc.include_paths << "#{dir}/include"
  spec.cc.include_paths << "#{dir}/../../core/include"
  spec.cc.include_paths << "#{dir}/../mnrb-thread/include"
end
