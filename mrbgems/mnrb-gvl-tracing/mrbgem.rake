# mnrb-gvl-tracing: the timeline tracer from Ruby, with the gvl-tracing gem's API
# (GvlTracing.start/stop); the recorder and the Perfetto writer are in the core (core/src/trace*.c).
MRuby::Gem::Specification.new('mnrb-gvl-tracing') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = 'GvlTracing: a Perfetto timeline of every thread\'s GVL states'
end
