# mnrb-yaml: CRuby's Psych (`require "yaml"`, `require "psych"`) on Debian's libyaml (libyaml-dev,
# scripts/deps.sh). libyaml parses and emits (src/yaml.c, as CRuby's psych extension does); the
# Ruby side (lib/psych.rb) resolves scalars, builds objects and walks objects into events as
# Psych's ScalarScanner, ToRuby and YAMLTree do. Nothing is defined at boot: the feature's code
# and classes are made at the first require (mnrb_feature.h).
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-yaml') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Psych (YAML) on libyaml, loaded at require"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-regexp'                                # ScalarScanner's patterns
  spec.cc.flags << `pkg-config --cflags yaml-0.1 2>/dev/null`.split
  # linked statically (Debian's libyaml.a): one shared library less for the dynamic loader at each
  # start, 57,000 instructions of `mnrb -e 1`'s 4.2 million (cachegrind)
  spec.linker.libraries << ':libyaml.a'
  MNRBFeatures.compile(spec, "mnrb_yaml", "psych" => %w(psych), "yaml" => %w(yaml))
end
