# mnrb-console: CRuby's io/console (`require "io/console"`, "io/console/size") on termios:
# src/console.c has the terminal calls, lib/io/console.rb the IO methods over them. Defined at the
# first require (mnrb_feature.h).
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-console') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's io/console, loaded at require"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-io'
  MNRBFeatures.compile(spec, "mnrb_console", "console" => %w(io/console), "size" => %w(io/console/size))
end
