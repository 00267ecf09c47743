# mnrb-rational: CRuby's Rational (numerator and denominator of any Integer size, Bignums
# included), Kernel#Rational with strings, to_r / rationalize on Integer, Float, String and nil, and
# (src/coerce.c) CRuby's coerce protocol for Integer's and Float's operators, which lets Rational,
# Complex and user Numerics mix with them. Replaces mruby-rational (int64 parts), so the core is
# built without MRB_USE_RATIONAL and Rationals are ordinary frozen objects.
MRuby::Gem::Specification.new('mnrb-rational') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = 'Rational with Integer parts of any size; Integer/Float coerce'
  spec.add_dependency 'mruby-bigint', core: 'mruby-bigint'
  spec.add_dependency 'mruby-math', core: 'mruby-math'
  spec.add_dependency 'mnrb-compat'     # Integer#gcd/#fdiv for Bignums, wrapped after it defines them
  spec.add_dependency 'mnrb-regexp'     # String#to_r parses with a Regexp
  # methods src/argconv.c wraps (Time.at, sleep, Integer(), Float(), format, ...) are defined first
  %w(mruby-time mruby-kernel-ext mruby-sprintf).each { |g| spec.add_dependency g, core: g }
  spec.add_dependency 'mnrb-thread'
  spec.add_dependency 'mnrb-io'         # IO.select
end
