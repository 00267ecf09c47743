# mnrb-marshal: CRuby's Marshal (binary format 4.8), in C. Core in CRuby, so it is defined at boot:
# one module with two methods, nothing else runs until a dump or load.
MRuby::Gem::Specification.new('mnrb-marshal') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Marshal.dump and Marshal.load (format 4.8)"
  spec.add_dependency 'mnrb-regexp'                                # Regexps (rx_regexp_p, source, options)
  spec.add_dependency 'mruby-struct', core: 'mruby-struct'
  spec.cc.include_paths << "#{dir}/../mnrb-regexp/src"
  spec.cc.flags << `pkg-config --cflags oniguruma 2>/dev/null`.split
end
