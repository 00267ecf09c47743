# The mnrb-encoding gem: CRuby's Encoding for the encodings mnrb's Strings carry (UTF-8, ASCII-8BIT
# alias BINARY, US-ASCII, and table.c's ISO-8859-*, Windows-125*, UTF-16/32, Shift_JIS, EUC-JP...;
# patches/mruby/0018 and 0220 keep the encoding in a String's flag bits; encode uses glibc's iconv): the
# Encoding class and its errors, String#encoding/force_encoding/b/valid_encoding?/ascii_only?,
# encode and scrub, the encodings of strings made by Integer#chr and Array#pack, and case mapping
# and tr beyond ASCII, Unicode normalization (Debian's libutf8proc, linked statically). Needs
# MRB_UTF8_STRING (build_config.rb).
MRuby::Gem::Specification.new('mnrb-encoding') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Encoding (UTF-8, BINARY, US-ASCII, legacy and UTF-16/32), encode, scrub, case mapping beyond ASCII"
  spec.add_dependency 'mruby-string-ext', core: 'mruby-string-ext'   # valid_encoding?, chr: replaced here
  spec.add_dependency 'mruby-pack',       core: 'mruby-pack'         # Array#pack: wrapped here
  spec.add_dependency 'mruby-io',         core: 'mruby-io'           # IO reads' encodings (mrblib)
  spec.linker.libraries << ':libutf8proc.a'                           # unicode_normalize (normalize.c), linked statically
end
