# mnrb-bigdecimal: CRuby's BigDecimal (`require "bigdecimal"`, "bigdecimal/util", "bigdecimal/math"), in Ruby over
# Integer (mruby-bigint): lib/bigdecimal.rb says how. Nothing is defined at boot: the class is made
# at the first require (mnrb_feature.h).
#
# Debian 12 has no libmpdec-dev (mpdecimal is bundled inside python3.11 there), and the arithmetic
# BigDecimal needs is exact Integer arithmetic plus rounding, which mruby-bigint already does.
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-bigdecimal') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's BigDecimal, loaded at require"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mruby-bigint', core: 'mruby-bigint'
  MNRBFeatures.compile(spec, "mnrb_bigdecimal",
                       "bigdecimal" => %w(bigdecimal bigdecimal_bigmath), "bigdecimal_util" => %w(bigdecimal_util),
                       "bigdecimal_math" => %w(bigdecimal_math))
end
