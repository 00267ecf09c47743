# mnrb-zlib: CRuby's Zlib (`require "zlib"`) on Debian's zlib (zlib1g-dev, scripts/deps.sh), linked
# statically as libyaml and libutf8proc are. src/zstream.c wraps zlib's streams and checksums;
# lib/zlib.rb is the gzip format (GzipWriter, GzipReader, Zlib.gzip/gunzip) over them. Nothing is
# defined at boot: the classes and code are made at the first require (mnrb_feature.h).
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-zlib') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Zlib on zlib, loaded at require"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-thread'                                # mnrb_blocking_call
  spec.cc.include_paths << "#{dir}/../mnrb-thread/include" << "#{dir}/../../core/include"
  spec.linker.libraries << ':libz.a'
  MNRBFeatures.compile(spec, "mnrb_zlib", "zlib" => %w(zlib))
end
