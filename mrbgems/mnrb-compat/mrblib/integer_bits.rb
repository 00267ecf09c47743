# Integer#[] (one bit, a width of bits, or a range of bits, as CRuby 2.7+), Integer#ord and #size,
# magnitude; Float#to_int; and Numeric's generic arithmetic for user-defined Numeric subclasses
# (Integer and Float define their own, so these are only reached by such subclasses).
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

class Numeric
  def magnitude
    abs
  end

  def to_int
    to_i
  end

  def div(other)
    raise ZeroDivisionError, "divided by 0" if other == 0
    (self / other).floor
  end

  def modulo(other)
    self - other * div(other)
  end
  alias % modulo

  def divmod(other)
    [div(other), modulo(other)]
  end

  def remainder(other)
    m = modulo(other)
    if m != 0 && ((self < 0 && other > 0) || (self > 0 && other < 0))
      m - other
    else
      m
    end
  end

  def fdiv(other)
    to_f / other
  end

  def floor(*digits) = to_f.floor(*digits)
  def ceil(*digits) = to_f.ceil(*digits)
  def round(*digits, **opts) = to_f.round(*digits, **opts)
  def truncate(*digits) = to_f.truncate(*digits)

  def coerce(other)
    return [other, self] if other.class == self.class
    [__mnrb_coerce_f(other), __mnrb_coerce_f(self)]
  end

  # Float(x) as CRuby's Numeric#coerce takes it: Kernel#Float, or to_f for other Numerics
  def __mnrb_coerce_f(x)
    return x if x.is_a?(Float)
    return x.to_f if x.is_a?(Numeric) && x.respond_to?(:to_f)
    raise TypeError, "can't convert nil into Float" if x.nil?
    Float(x)
  end
end
