# mnrb-complex: CRuby's Complex (parts of any real kind: Integer, Rational, Float), Kernel#Complex
# with strings, to_c, Numeric#i. Replaces mruby-complex (Float parts) and mruby-cmath (which needs
# its C API; CMath is not in CRuby 3 either).
MRuby::Gem::Specification.new('mnrb-complex') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = 'Complex with Integer, Rational or Float parts'
  spec.add_dependency 'mnrb-rational'   # Integer/Float coerce, quo
end
