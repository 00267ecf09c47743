# Hash/String/Array/Integer.try_convert (CRuby; Regexp's is left to mnrb-regexp, which loads after
# this gem): the object itself when it is already of the class, else the result of
# its implicit conversion method (nil when it has none or the method gives nil); a conversion that
# gives another class is a TypeError. Also Hash#assoc, #rassoc and #to_hash.
module Kernel
  def __mnrb_try_convert(klass, obj, meth)
    return obj if obj.is_a?(klass)
    return nil unless obj.respond_to?(meth, true)
    r = obj.__send__(meth)
    return r if r.nil? || r.is_a?(klass)
    raise TypeError, "can't convert #{obj.class} to #{klass} (#{obj.class}##{meth} gives #{r.class})"
  end
end

class Hash
  def self.try_convert(obj) = __mnrb_try_convert(Hash, obj, :to_hash)

  def to_hash
    self
  end

  def assoc(key)
    return nil unless key?(key)
    each { |k, v| return [k, v] if k.eql?(key) }
    [key, self[key]]
  end

  def rassoc(value)
    each { |k, v| return [k, v] if v == value }
    nil
  end
end

class String
  def self.try_convert(obj) = __mnrb_try_convert(String, obj, :to_str)
end

class Array
  def self.try_convert(obj) = __mnrb_try_convert(Array, obj, :to_ary)
end

class Integer
  def self.try_convert(obj) = __mnrb_try_convert(Integer, obj, :to_int)
end

