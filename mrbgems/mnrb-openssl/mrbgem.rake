# mnrb-openssl: CRuby's OpenSSL (`require "openssl"`) on Debian's libssl (libssl-dev, scripts/deps.sh),
# opened with dlopen at the first require (src/libssl.c), not linked: a process that never requires
# openssl maps none of it. src/ wraps libcrypto's EVP layer (Digest, HMAC, Cipher,
# KDF, Random, PKey, BN), X509 certificates and stores, and libssl's SSL objects over a socket's
# descriptor; lib/openssl.rb is the Ruby half (the named digest classes, SSLContext#set_params, the
# buffered reads and writes of an SSLSocket). Nothing is defined at boot: the classes and code are
# made at the first require (mnrb_feature.h).
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-openssl') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's OpenSSL on libssl, loaded at require"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-thread'                                # mnrb_io_wait
  spec.cc.include_paths << "#{dir}/../mnrb-thread/include" << "#{dir}/../../core/include"
  spec.cc.defines << 'OPENSSL_API_COMPAT=30000' << 'OPENSSL_NO_DEPRECATED'   # OpenSSL 3's API only
  # no libssl/libcrypto here: src/libssl.c opens libssl.so.3 at require (dlopen is in glibc >= 2.34)
  MNRBFeatures.compile(spec, "mnrb_openssl", "openssl" => %w(openssl ssl))
end
