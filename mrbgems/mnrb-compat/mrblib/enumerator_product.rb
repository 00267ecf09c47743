# Enumerator.product(*enums) (CRuby 3.2): the Cartesian product as an Enumerator::Product; each
# enum is walked with each_entry, the first varying slowest.
class Enumerator
  class Product < Enumerator
    def initialize(*enums, **kw)
      unless kw.empty?
        raise ArgumentError, "unknown keyword#{kw.size > 1 ? "s" : ""}: #{kw.keys.map(&:inspect).join(", ")}"
      end
      @__mnrb_enums = enums.freeze
      super() { |y| __mnrb_walk(0, [], y) }
    end

    def size
      enums = @__mnrb_enums
      enums.inject(1) do |total, e|
        return nil unless e.respond_to?(:size)
        n = e.size
        return n if n.nil?
        total * n
      end
    end

    def rewind
      @__mnrb_enums.reverse_each { |e| e.rewind if e.respond_to?(:rewind) }
      super
    end

    def inspect = "#<#{self.class}: #{@__mnrb_enums.inspect}>"
    def to_s = inspect

    private

    def __mnrb_walk(i, prefix, y)
      return y.yield(prefix.dup) if i == @__mnrb_enums.size
      @__mnrb_enums[i].each_entry { |v| __mnrb_walk(i + 1, [*prefix, v], y) }
    end
  end

  def self.product(*enums, **kw, &block)
    product = Product.new(*enums, **kw)
    return product unless block
    product.each(&block)
    nil
  end
end
