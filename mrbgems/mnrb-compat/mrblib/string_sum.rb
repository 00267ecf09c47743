# String#sum (CRuby): the sum of the bytes, modulo 2**bits when bits is positive.
class String
  def sum(bits = 16)
    bits = bits.to_int unless bits.is_a?(Integer)
    s = 0
    each_byte { |b| s += b }
    bits > 0 ? s & ((1 << bits) - 1) : s
  end
end
