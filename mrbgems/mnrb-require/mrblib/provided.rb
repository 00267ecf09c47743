# What mnrb has built in and `require` therefore finds already loaded (it returns false).
#
# Only what is really there: features of the gems this one depends on are provided here, the
# others when their gem's code calls MNRB::Loader.provide (mnrb-stdlib, mnrb-net) or, for gems
# that know nothing of require, when a require finds what the feature defines (CONDITIONAL).
# $LOADED_FEATURES names them as CRuby does where CRuby has them from the start.
module MNRB
  module Loader
    # feature => [$LOADED_FEATURES entry, true when mnrb has what the feature defines]
    CONDITIONAL = {
      "io/wait"     => ["io/wait.so", -> { IO.method_defined?(:wait_readable) }],
      "io/nonblock" => ["io/nonblock.so", -> { IO.method_defined?(:nonblock=) }],
      "set"         => ["set.rb", -> { Object.const_defined?(:Set) }],
      "objspace"    => ["objspace.so", -> { Object.const_defined?(:ObjectSpace) && ObjectSpace.respond_to?(:memsize_of) }],
      "time"        => ["time.rb", -> { Time.respond_to?(:parse) }],
    }

    provide "enumerator", "enumerator.so"
    provide "thread", "thread.rb"
    provide "fiber", "fiber.so"
    provide "rational", "rational.so"
    provide "complex", "complex.so"
    provide "monitor", "monitor.rb"
    provide "rubygems", "rubygems.rb"   # Kernel#gem and Gem's errors: gems.rb
  end
end
