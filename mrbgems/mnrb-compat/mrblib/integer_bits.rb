# Integer#[] (one bit, a width of bits, or a range of bits, as CRuby 2.7+), Integer#ord and #size,
# magnitude; Float#to_int. (Numeric's generic arithmetic for user-defined subclasses is
# mnrb-rational's, mrblib/rational.rb: it is the one Rational and Complex use too.)
class Integer
  def [](*args)
    unless args.size == 1 || args.size == 2
      raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 1..2)"
    end
    if args.size == 2
      i = __mnrb_bit_index(args[0])
      len = __mnrb_bit_index(args[1])
      return __mnrb_bits_from(i, len)
    end
    a = args[0]
    return __mnrb_bit_range(a) if a.is_a?(Range)
    i = __mnrb_bit_index(a)
    return 0 if i < 0
    __mnrb_shr(i) & 1
  end

  def ord
    self
  end

  def size
    bl = abs.bit_length
    bl <= 64 ? 8 : (bl + 7) / 8
  end

  alias magnitude abs

  def __mnrb_bit_index(v)
    return v if v.is_a?(Integer)
    raise TypeError, "no implicit conversion of #{v.nil? ? 'nil' : v.class} into Integer" unless v.respond_to?(:to_int)
    v.to_int
  end

  # self >> i, also for shifts past every bit (mruby's >> raises RangeError for a Bignum count)
  def __mnrb_shr(i)
    return (self < 0 ? -1 : 0) if i > 0 && i > bit_length
    self >> i
  end

  # (self >> i) masked to len bits; a negative len reads nothing as CRuby does (a plain shift)
  def __mnrb_bits_from(i, len)
    return __mnrb_shr(i) if len < 0
    __mnrb_shr(i) & ((1 << len) - 1)
  end

  def __mnrb_bit_range(r)
    b = r.begin
    e = r.end
    if b.nil?
      e = __mnrb_bit_index(e)
      e -= 1 if r.exclude_end?
      mask = e < 0 ? 0 : (1 << (e + 1)) - 1
      return 0 if (self & mask) == 0
      raise ArgumentError, "The beginless range for Integer#[] results in infinity"
    end
    b = __mnrb_bit_index(b)
    return __mnrb_shr(b) if e.nil?
    e = __mnrb_bit_index(e)
    return __mnrb_shr(b) if e < b
    __mnrb_bits_from(b, e - b + (r.exclude_end? ? 0 : 1))
  end
end

class Float
  alias to_int to_i
  alias magnitude abs
end
