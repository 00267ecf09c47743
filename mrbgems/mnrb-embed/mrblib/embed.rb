# The Ruby half of mnrb_ractor_new (src/embed.c): Ractor.new with a block compiled from C.
module MNRB
  module Embed
    def self.ractor_new(name, args, body)
      Ractor.new(*args, name: name, &body)
    end
  end
end
