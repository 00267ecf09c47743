# Enumerable#min_by and #max_by compare the block's values with <=>, as CRuby (mruby's use < and >,
# which Arrays do not have: `max_by { |x| [x.size, x] }` raised NoMethodError), and take CRuby's
# count argument.
module Enumerable
  def min_by(n = nil, &block)
    return to_enum(:min_by, n) unless block
    return sort_by(&block).first(n) if n
    __mnrb_extreme_by(-1, &block)
  end

  def max_by(n = nil, &block)
    return to_enum(:max_by, n) unless block
    return sort_by(&block).reverse.first(n) if n
    __mnrb_extreme_by(1, &block)
  end

  def __mnrb_extreme_by(want, &block)
    first = true
    best = nil
    best_v = nil
    each do |*val|
      v = block.call(*val)
      if first
        best = val.__svalue
        best_v = v
        first = false
      else
        c = v <=> best_v
        raise ArgumentError, "comparison of #{v.class} with #{best_v.class} failed" if c.nil?
        if c == want
          best = val.__svalue
          best_v = v
        end
      end
    end
    best
  end
end
