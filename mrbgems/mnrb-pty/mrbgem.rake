# mnrb-pty: CRuby's PTY (`require "pty"`: PTY.open, PTY.spawn, PTY.check) on posix_openpt(3) and
# posix_spawn(3), and IO#expect (`require "expect"`, Ruby in lib/). Nothing is defined at boot:
# the module is made at the first require (mnrb_feature.h).
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-pty') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's PTY and expect, loaded at require"
  spec.add_dependency 'mnrb-require'
  MNRBFeatures.compile(spec, "mnrb_pty", "pty" => %w(pty), "expect" => %w(expect))
end
