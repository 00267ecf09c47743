# mnrb-gvltools: GVL metrics with the API of Shopify's gvltools gem (GlobalTimer, LocalTimer,
# WaitingThreads) plus mnrb's Stats (per ractor and per thread: hold time, acquisitions,
# preemptions, GC time, idle time by reason, wait-latency histogram). Built on the core's event
# hooks (core/include/mnrb/core.h); see mrblib/gvltools.rb for the API and docs/DESIGN.md.
MRuby::Gem::Specification.new('mnrb-gvltools') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb developers'
  spec.summary = 'gvltools-compatible GVL metrics, plus per-ractor and per-thread GVL statistics'
  spec.add_dependency('mnrb-thread')
  spec.cc.include_paths << "#{dir}/../../core/include"
end
