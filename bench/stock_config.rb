# Stock mruby 3.3.0 (no mnrb patches, no mnrb gems), same gemboxes and compiler flags as mnrb's
# host build: the baseline for the cost of mnrb's VM patches (fib benchmark).
MRuby::Build.new do |conf|
  conf.toolchain :gcc
  %w(stdlib stdlib-ext stdlib-io math metaprog).each { |box| conf.gembox box }
  conf.gem core: 'mruby-error'
  conf.gem core: 'mruby-catch'
  conf.gem core: 'mruby-bin-mrbc'
  conf.gem core: 'mruby-bin-mruby'
end
