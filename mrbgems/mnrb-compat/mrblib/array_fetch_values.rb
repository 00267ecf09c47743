# Array#fetch_values (CRuby 3.4): fetch for each index, the block for those out of range; IndexError
# as fetch's without one.
class Array
  def fetch_values(*indexes, &block)
    indexes.map! { |i| fetch(i, &block) }
    indexes
  end
end
