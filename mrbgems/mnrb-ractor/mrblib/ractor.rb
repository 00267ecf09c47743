# Ractor's argument handling; the work is in C (src/ractor.c).
class Ractor
  def self.new(*args, name: nil, &block)
    raise ArgumentError, "must be called with a block" unless block
    __create(name, args, &block)
  end

  def self.yield(obj, move: false)
    __yield(obj, move)
  end

  def self.make_shareable(obj, copy: false)
    __make_shareable(obj, copy)
  end

  def send(obj, move: false)
    __send(obj, move)
  end
  alias << send
end
