# Range#bsearch (CRuby): find-minimum mode (the block answers true/false/nil: the first value
# for which it is true) and find-any mode (it answers a number: 0 found, positive look right,
# negative look left), over Integer ranges (endless and beginless too) and Float ranges (searched
# by the doubles' order-preserving integer keys, src/float_next.c, so at most ~64 probes).
class Range
  def bsearch(&block)
    return to_enum(:bsearch) unless block
    b = self.begin
    e = self.end
    if (b.is_a?(Float) || e.is_a?(Float)) && (b.nil? || b.is_a?(Numeric)) && (e.nil? || e.is_a?(Numeric))
      lo = (b.nil? ? -Float::INFINITY : b.to_f).__mnrb_bsearch_key
      hi = (e.nil? ? Float::INFINITY : e.to_f).__mnrb_bsearch_key
      hi -= 1 if exclude_end? && !e.nil?
      k = Range.__mnrb_bsearch_ints(lo, hi) { |i| block.call(Float.__mnrb_from_bsearch_key(i)) }
      return k && Float.__mnrb_from_bsearch_key(k)
    end
    if (b.is_a?(Integer) || b.nil?) && (e.is_a?(Integer) || e.nil?) && !(b.nil? && e.nil?)
      return Range.__mnrb_bsearch_unbounded(b, e, exclude_end?, block) if b.nil? || e.nil?
      return Range.__mnrb_bsearch_ints(b, exclude_end? ? e - 1 : e, &block)
    end
    raise TypeError, "can't do binary search for #{(b.nil? ? e : b).class}"
  end

  # :right (the answer is further right), :left (here or further left) or [:found]
  def self.__mnrb_bsearch_verdict(r)
    return :left if r.equal?(true)
    return :right if r.nil? || r.equal?(false)
    unless r.is_a?(Numeric)
      raise TypeError, "wrong argument type #{r.class} (must be numeric, true, false or nil)"
    end
    return :found if r == 0
    r > 0 ? :right : :left
  end

  def self.__mnrb_bsearch_ints(lo, hi)
    found = nil
    while lo <= hi
      mid = lo + (hi - lo) / 2
      case __mnrb_bsearch_verdict(yield(mid))
      when :found then return mid
      when :left
        found = mid
        hi = mid - 1
      else
        lo = mid + 1
      end
    end
    found
  end

  # Endless or beginless: probe outwards by doubling steps until the answer is bracketed.
  def self.__mnrb_bsearch_unbounded(b, e, excl, block)
    if e.nil?
      step = 1
      lo = b
      loop do
        probe = b + step - 1
        v = __mnrb_bsearch_verdict(block.call(probe))
        return probe if v == :found
        return __mnrb_bsearch_ints(lo, probe) { |i| block.call(i) } if v == :left
        lo = probe + 1
        step *= 2
      end
    else
      hi = excl ? e - 1 : e
      step = 1
      loop do
        probe = hi - step + 1
        v = __mnrb_bsearch_verdict(block.call(probe))
        return probe if v == :found
        return __mnrb_bsearch_ints(probe, hi) { |i| block.call(i) } if v == :right
        step *= 2
      end
    end
  end
end
