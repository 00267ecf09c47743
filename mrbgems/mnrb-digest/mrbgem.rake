# mnrb-digest: CRuby's Digest (MD5, SHA1, SHA256, SHA384, SHA512, SHA2) on Debian's Nettle
# (nettle-dev, scripts/deps.sh). Loaded at `require "digest"` ("digest/md5", "digest/sha1",
# "digest/sha2" load it too, as in CRuby).
MRuby::Gem::Specification.new('mnrb-digest') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Digest on Nettle, loaded at require"
  spec.add_dependency 'mnrb-require'
  spec.cc.flags << `pkg-config --cflags nettle 2>/dev/null`.split
  spec.linker.libraries << 'nettle'
end
