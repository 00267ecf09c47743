# The mnrb-encoding gem: CRuby's Encoding for the three encodings mnrb's Strings carry (UTF-8, ASCII-8BIT
# alias BINARY, US-ASCII; patches/mruby/0018 keeps the encoding in a String's flag bits): the
# Encoding class and its errors, String#encoding/force_encoding/b/valid_encoding?/ascii_only?,
# encode and scrub, the encodings of strings made by Integer#chr and Array#pack, and case mapping
# and tr beyond ASCII, Unicode normalization (Debian's libutf8proc, linked statically). Needs
# MRB_UTF8_STRING (build_config.rb).
MRuby::Gem::Specification.new('mnrb-encoding') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Encoding (UTF-8, BINARY, US-ASCII), encode, scrub, case mapping beyond ASCII"
  spec.add_dependency 'mruby-string-ext', core: 'mruby-string-ext'   # valid_encoding?, chr: replaced here
  spec.add_dependency 'mruby-pack',       core: 'mruby-pack'         # Array#pack: wrapped here
  spec.add_dependency 'mruby-io',         core: 'mruby-io'           # IO reads' encodings (mrblib)
  spec.linker.libraries << ':libutf8proc.a'                           # unicode_normalize (normalize.c), linked statically
end
