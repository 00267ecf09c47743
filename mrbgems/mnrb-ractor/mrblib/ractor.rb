# Ractor.new's argument handling; everything else is in C (src/ractor.c).
class Ractor
  def self.new(*args, name: nil, &block)
    raise ArgumentError, "must be called with a block" unless block
    __create(name, args, &block)
  end
end
