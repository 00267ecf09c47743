# mnrb-regexp: CRuby's Regexp, MatchData, $~ and the String methods that take a Regexp, on Debian's
# Oniguruma (libonig, the engine CRuby's Onigmo derives from). Needs patches/mruby/0005 ($~ per frame).
MRuby::Gem::Specification.new('mnrb-regexp') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Regexp and MatchData on Oniguruma, with $~ per frame and per thread"
  spec.add_dependency 'mruby-string-ext', core: 'mruby-string-ext'  # start_with?, partition: replaced here
  spec.add_dependency 'mruby-symbol-ext', core: 'mruby-symbol-ext'
  spec.add_dependency 'mruby-hash-ext',   core: 'mruby-hash-ext'
  spec.add_dependency 'mruby-enumerator', core: 'mruby-enumerator'  # gsub/scan without a block
  spec.cc.flags << `pkg-config --cflags oniguruma 2>/dev/null`.split
  spec.linker.libraries << 'onig'
end
