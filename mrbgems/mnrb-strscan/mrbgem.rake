# mnrb-strscan: CRuby's StringScanner (`require "strscan"`), in C. Regexps are mnrb-regexp's
# (Oniguruma), matched anchored at the scan pointer through that gem's C functions (its src/internal.h).
MRuby::Gem::Specification.new('mnrb-strscan') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's StringScanner, loaded at require"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-regexp'
  spec.cc.include_paths << "#{dir}/../mnrb-regexp/src"                # rx_* (internal.h, region.h)
  spec.cc.flags << `pkg-config --cflags oniguruma 2>/dev/null`.split
end
