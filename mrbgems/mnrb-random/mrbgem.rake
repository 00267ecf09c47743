# mnrb-random: Random as CRuby 3.2+ has it, in place of mruby-random. The same generator
# (MT19937) and the same derivation of floats, integers, ranges, bytes, Array#shuffle and
# Array#sample as CRuby, so a seed gives CRuby's numbers; a default generator per mrb_state (one
# per ractor), seeded from getrandom(2) at first use. Big seeds and limits use mruby-bigint.
# Do not build it together with mruby-random: both define Random.
MRuby::Gem::Specification.new('mnrb-random') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = 'CRuby-compatible Random (MT19937), Kernel#rand/srand, Array#shuffle/sample'
  spec.add_dependency 'mruby-bigint', core: 'mruby-bigint'   # seeds, new_seed, rand(2**70)
  spec.add_test_dependency 'mnrb-rational'
  spec.add_test_dependency 'mruby-pack',     core: 'mruby-pack'       # Floats compared bit for bit
  spec.add_test_dependency 'mruby-time',     core: 'mruby-time'       # rand(Time range)
  spec.add_test_dependency 'mruby-numeric-ext', core: 'mruby-numeric-ext' # Float::MAX
end
