# Hash#hash independent of insertion order, as in CRuby: hashes that are == (whatever order their
# pairs went in) must find each other as Hash keys and Set elements. mruby's (Enumerable#hash)
# folds the pairs in order.
class Hash
  def hash
    code = size
    each { |k, v| code ^= [k, v].hash }
    code
  end
end
