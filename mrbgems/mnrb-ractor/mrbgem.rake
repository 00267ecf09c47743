MRuby::Gem::Specification.new('mnrb-ractor') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb developers'
  spec.summary = "CRuby's Ractor: parallel Ruby, one mrb_state (heap, GC, GVL) per ractor, messages copied between heaps"
  spec.add_dependency('mnrb-thread')
  spec.add_dependency('mruby-struct', core: 'mruby-struct')
  spec.cc.include_paths << "#{dir}/../../core/include"
  spec.cc.include_paths << "#{dir}/../mnrb-thread/include"
end
