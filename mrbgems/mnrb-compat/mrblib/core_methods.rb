# Core methods as CRuby 3.4 has them where mruby's differ or are missing: Integer.sqrt (exact, for
# Bignums too), Comparable#clamp with a Range (endless and beginless, CRuby's errors) and
# String.new's encoding: and capacity: keywords.
class Integer
  # The integer square root: the largest r with r * r <= n.
  def self.sqrt(n)
    n = __mnrb_to_integer(n)
    raise Math::DomainError, 'Numerical argument is out of domain - "isqrt"' if n < 0
    return Math.sqrt(n).to_i if n < 4_503_599_627_370_496   # 2**52: the Float result is exact
    x = 1 << ((n.bit_length + 1) / 2)   # above the root; Newton's steps come down to it
    loop do
      y = (x + n / x) >> 1
      return x if y >= x
      x = y
    end
  end

  def self.__mnrb_to_integer(n)
    return n if n.is_a?(Integer)
    return n.to_i if n.is_a?(Numeric) && !n.respond_to?(:to_int)   # Float, Rational
    return n.to_int if !n.nil? && n.respond_to?(:to_int)
    what = n.nil? ? "nil" : n == true ? "true" : n == false ? "false" : n.class.to_s
    raise TypeError, "no implicit conversion of #{what} into Integer"
  end
end

module Comparable
  # clamp(min, max) or clamp(range); a nil bound (or a beginless / endless range) is no bound.
  def clamp(min, max = (one_arg = true; nil))
    if one_arg
      raise TypeError, "wrong argument type #{min.class} (expected Range)" unless min.is_a?(Range)
      range = min
      min = range.begin
      max = range.end
      raise ArgumentError, "cannot clamp with an exclusive range" if !max.nil? && range.exclude_end?
    end
    if !min.nil? && !max.nil? && __mnrb_cmp(min, max) > 0
      raise ArgumentError, "min argument must be smaller than max argument"
    end
    unless min.nil?
      c = __mnrb_cmp(self, min)
      return self if c == 0
      return min if c < 0
    end
    return max if !max.nil? && __mnrb_cmp(self, max) > 0
    self
  end

  # <, <=, >, >= with CRuby's message when <=> gives nil ("comparison of String with 0 failed": a
  # fixnum, Float, Symbol, nil, true or false is shown by value); mruby's named the other's class.
  def <(other) = __mnrb_cmp(self, other) < 0
  def <=(other) = __mnrb_cmp(self, other) <= 0
  def >(other) = __mnrb_cmp(self, other) > 0
  def >=(other) = __mnrb_cmp(self, other) >= 0

  private

  # a <=> b as -1, 0 or 1; CRuby's ArgumentError when they do not compare (the right side shown
  # by value when it is an immediate or a Float, else by class).
  def __mnrb_cmp(a, b)
    c = a <=> b
    if c.nil?
      shown = [nil, true, false].include?(b) || b.is_a?(Symbol) || b.is_a?(Float) ||
              (b.is_a?(Integer) && b.abs < 4_611_686_018_427_387_904) ? b.inspect : b.class
      raise ArgumentError, "comparison of #{a.class} with #{shown} failed"
    end
    c > 0 ? 1 : c < 0 ? -1 : 0
  end
end

class String
  alias __mnrb_initialize initialize

  # String.new(str = "", encoding: nil, capacity: nil): without str, an empty binary String (as
  # CRuby); capacity is checked but only a hint (mruby grows strings as needed).
  def initialize(*args, encoding: nil, capacity: nil)
    Integer.__mnrb_to_integer(capacity) unless capacity.nil?
    if !args.empty? && !args[0].is_a?(String)
      s = args[0]
      raise TypeError, "no implicit conversion of #{s.nil? ? "nil" : s.class} into String" unless s.respond_to?(:to_str)
      args[0] = s.to_str
    end
    enc = Encoding.find(encoding.to_s) if encoding && !encoding.is_a?(Encoding)
    enc ||= encoding
    __mnrb_initialize(*args)
    if enc
      force_encoding(enc)
    elsif args.empty?
      force_encoding(Encoding::BINARY)
    end
    self
  end
end

# ObjectSpace.each_object without a block: an Enumerator, as CRuby's. (mruby-objectspace is
# initialized before this gem in mnrb; a gem's own mrbtest may run without it.)
if Object.const_defined?(:ObjectSpace) && ObjectSpace.respond_to?(:each_object)
  module ObjectSpace
    class << self
      alias_method :_each_object, :each_object
      def each_object(*mod, &blk)
        return to_enum(:each_object, *mod) unless blk
        _each_object(*mod, &blk)
      end
    end
  end
end

# CRuby: `method === obj` calls the method with obj (a Method as a `when` clause's pattern); mruby's
# Method had Object's identity ===.
if Object.const_defined?(:Method)
  class Method
    def ===(obj) = call(obj)
  end
end
