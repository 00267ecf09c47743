# Ractor.new's argument handling; everything else is in C (src/ractor.c).
class Ractor
  def self.new(*args, name: nil, &block)
    raise ArgumentError, "must be called with a block" unless block
    __create(name, args, &block)
  end
end

module MNRB
  # Calls a new ractor's block (src/registry.c) from a Ruby frame, so that `return` in the block
  # raises LocalJumpError ("unexpected return") as in CRuby instead of ending the ractor with a value.
  module RactorBlock
    def self.run(block, args)
      block.call(*args)
    end
  end
end
