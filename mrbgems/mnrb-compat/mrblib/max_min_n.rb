# max(n) and min(n) (CRuby): the n largest (descending) or smallest (ascending) elements, by <=>
# or the block's comparison. mruby's Enumerable#max/min and Range#max/min take no count.
module Enumerable
  alias __mnrb_max1 max
  alias __mnrb_min1 min

  def max(n = nil, &block)
    return __mnrb_max1(&block) if n.nil?
    __mnrb_extremes(n, block, true)
  end

  def min(n = nil, &block)
    return __mnrb_min1(&block) if n.nil?
    __mnrb_extremes(n, block, false)
  end

  def __mnrb_extremes(n, block, largest)
    unless n.is_a?(Integer)
      raise TypeError, "no implicit conversion of #{n.nil? ? 'nil' : n.class} into Integer" unless n.respond_to?(:to_int)
      n = n.to_int
    end
    raise ArgumentError, "negative size (#{n})" if n < 0
    return [] if n == 0
    sorted = block ? to_a.sort(&block) : to_a.sort
    sorted.reverse! if largest
    sorted.first(n)
  end
end

# mruby-range-ext's Range#max/#min (absent from some mrbtest environments, where Enumerable's serve)
if Range.instance_methods(false).include?(:max)
class Range
  alias __mnrb_range_max1 max
  alias __mnrb_range_min1 min

  def max(n = nil, &block)
    return __mnrb_range_max1(&block) if n.nil?
    raise RangeError, "cannot get the maximum of endless range" if self.end.nil?
    __mnrb_extremes(n, block, true)
  end

  def min(n = nil, &block)
    return __mnrb_range_min1(&block) if n.nil?
    raise RangeError, "cannot get the minimum of endless range" if self.end.nil?
    __mnrb_extremes(n, block, false)
  end
end
end
