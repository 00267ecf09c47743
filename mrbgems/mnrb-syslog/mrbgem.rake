# mnrb-syslog: CRuby's Syslog (`require "syslog"`) on libc's syslog(3), and Syslog::Logger
# (`require "syslog/logger"`, Ruby in lib/). Nothing is defined at boot: the module is made at the
# first require (mnrb_feature.h).
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-syslog') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Syslog on syslog(3), loaded at require"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mruby-sprintf', core: 'mruby-sprintf'     # Syslog.log formats with Kernel#format
  MNRBFeatures.compile(spec, "mnrb_syslog", "syslog" => %w(syslog), "syslog_logger" => %w(syslog_logger))
end
