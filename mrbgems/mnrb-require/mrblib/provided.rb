# What mnrb has built in and `require` therefore finds already loaded (it returns false).
#
# Only what is really there: features of the gems this one depends on are provided here, the
# others when their gem's code calls MNRB::Loader.provide (mnrb-stdlib, mnrb-net) or, for gems
# that know nothing of require, when a require finds what the feature defines (conditional).
# $LOADED_FEATURES names them as CRuby does where CRuby has them from the start.
module MNRB
  module Loader
    # The $LOADED_FEATURES entry of a feature mnrb has when what it defines is there, nil
    # otherwise. A method, not a table of lambdas: each state (each ractor) made that table at boot.
    def self.conditional(feature)
      case feature
      when "io/wait"     then "io/wait.so" if IO.method_defined?(:wait_readable)
      when "io/nonblock" then "io/nonblock.so" if IO.method_defined?(:nonblock=)
      when "set"         then "set.rb" if Object.const_defined?(:Set)
      when "objspace"    then "objspace.so" if Object.const_defined?(:ObjectSpace) && ObjectSpace.respond_to?(:memsize_of)
      when "time"        then "time.rb" if Time.respond_to?(:parse)
      end
    end

    provide "enumerator", "enumerator.so"
    provide "thread", "thread.rb"
    provide "fiber", "fiber.so"
    provide "rational", "rational.so"
    provide "complex", "complex.so"
    provide "monitor", "monitor.rb"
    provide "rubygems", "rubygems.rb"   # Kernel#gem and Gem's errors: gems.rb
  end
end
