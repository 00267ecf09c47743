# mnrb-fcntl: CRuby's Fcntl module (`require "fcntl"`): fcntl(2)'s and open(2)'s constants with
# this system's values, for IO#fcntl (mnrb-io) and File.open. Defined at the first require.
MRuby::Gem::Specification.new('mnrb-fcntl') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's Fcntl constants, loaded at require"
  spec.add_dependency 'mnrb-require'
end
