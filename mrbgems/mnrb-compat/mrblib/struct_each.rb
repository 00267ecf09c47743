# Struct#each, #each_pair, #select and #filter as CRuby: without a block they return an Enumerator
# (sized by the member count) instead of calling a nil block (mruby-struct's versions raised
# NoMethodError "undefined method 'call' for nil"), and they yield rather than take &block.
class Struct
  def each
    return to_enum(:each) { size } unless block_given?
    members.each { |m| yield self[m] }
    self
  end

  def each_pair
    return to_enum(:each_pair) { size } unless block_given?
    members.each { |m| yield [m, self[m]] }   # one pair, as CRuby yields to a block of one parameter
    self
  end

  def select
    return to_enum(:select) { size } unless block_given?
    result = []
    members.each do |m|
      v = self[m]
      result << v if yield(v)
    end
    result
  end
  alias filter select
end
