# ObjectSpace::WeakMap's iteration (src/weakmap.c holds the table): each walks a snapshot of the
# live pairs, so the block may change the map and a collection meanwhile cannot disturb it.
module ObjectSpace
  class WeakMap
    include Enumerable

    def each
      return to_enum(:each) unless block_given?
      pairs = __pairs
      i = 0
      while i < pairs.size
        yield pairs[i], pairs[i + 1]
        i += 2
      end
      self
    end
    alias each_pair each

    def each_key
      return to_enum(:each_key) unless block_given?
      each { |k, _| yield k }
    end

    def each_value
      return to_enum(:each_value) unless block_given?
      each { |_, v| yield v }
    end

    def keys
      out = []
      each { |k, _| out << k }
      out
    end

    def values
      out = []
      each { |_, v| out << v }
      out
    end
  end
end
