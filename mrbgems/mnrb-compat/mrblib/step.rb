# Numeric#step, Range#step and Range#% as CRuby's (mruby 3.3 has only a simpler Integer#step and Float#step). Without a block they
# return an Enumerator (CRuby: an Enumerator::ArithmeticSequence, with the same elements). Float steps
# compute each value as begin + i * step from a count fixed in advance, as CRuby does, so that errors
# do not accumulate and the limit itself is reached when it should be (1.0.step(2.0, 0.1) has 11).
class Numeric
  def step(limit = nil, step = nil, by: nil, to: nil, &block)
    raise ArgumentError, "step is given twice" if step && by
    raise ArgumentError, "to is given twice" if limit && to
    step = by || step || 1
    limit ||= to
    raise ArgumentError, "step can't be 0" if step == 0 && !block.nil?
    return to_enum(:step, limit, step) unless block
    Numeric.__mnrb_step(self, limit, step, false, &block)
    self
  end

  # The loops below call the block with `yield`: the VM calls a yielded block directly (mruby patch
  # 0046: no method search) and, as in CRuby, a Proc#call redefined by the program is not called.
  def self.__mnrb_step(from, limit, step, exclusive, &block)
    raise ArgumentError, "step can't be 0" if step == 0
    if from.is_a?(Float) || limit.is_a?(Float) || step.is_a?(Float)
      __mnrb_float_step(from.to_f, limit.nil? ? (step > 0 ? Float::INFINITY : -Float::INFINITY) : limit.to_f,
                        step.to_f, exclusive, &block)
    elsif limit.nil?
      i = from
      loop { yield(i); i += step }
    else
      # one loop per direction and end: the test of each turn is a single comparison (issue 22)
      i = from
      if step > 0
        if exclusive
          while i < limit
            yield(i)
            i += step
          end
        else
          while i <= limit
            yield(i)
            i += step
          end
        end
      elsif exclusive
        while i > limit
          yield(i)
          i += step
        end
      else
        while i >= limit
          yield(i)
          i += step
        end
      end
    end
  end

  def self.__mnrb_float_step(from, limit, step, exclusive, &block)
    if limit.infinite? && (limit > 0) == (step > 0)
      i = 0
      loop { yield(from + i * step); i += 1 }
    end
    n = (limit - from) / step
    err = (from.abs + limit.abs + (limit - from).abs) / step.abs * Float::EPSILON
    err = 0.5 if err > 0.5
    return if n < 0
    count = (n + err).floor                        # the last index whose value is within the limit
    count -= 1 if exclusive && (n - count).abs <= err   # that value is the limit itself: left out
    (0..count).each do |k|
      d = from + k * step
      d = limit if step >= 0 ? limit < d : d < limit
      yield(d)
    end
  end
end

# mruby's own Integer#step and Float#step (no keywords, accumulating Float errors) give way to Numeric's
class Integer; remove_method :step; end
class Float; remove_method :step; end

class Range
  def step(n = 1, &block)
    numeric = self.begin.is_a?(Numeric) && (self.end.nil? || self.end.is_a?(Numeric))
    unless numeric
      raise ArgumentError, "step can't be negative" if n < 0
      raise ArgumentError, "step can't be 0" if n == 0
    end
    return to_enum(:step, n) unless block
    if numeric
      Numeric.__mnrb_step(self.begin, self.end, n, exclude_end?, &block)
    else
      each_with_index { |v, i| block.call(v) if i % n == 0 }
    end
    self
  end

  def %(n) = step(n)
end
