# ENV as CRuby's: a Hash-like view of the process environment, on src/env.c's three primitives
# (_get, _set, _pairs), which serialise every access process-wide. Names and values are Strings
# (TypeError otherwise, as CRuby); values read are new frozen Strings. Iteration walks a snapshot,
# so the block may change ENV. Changes are the process's: children (spawn, system, ``) see them.
class MnrbEnv
  include Enumerable

  def [](name)
    _get(name)
  end

  def []=(name, value)
    _set(name, value)
  end

  def store(name, value)
    _set(name, value)
  end

  def fetch(name, *default)
    if default.size > 1
      raise ArgumentError, "wrong number of arguments (given #{default.size + 1}, expected 1..2)"
    end
    v = _get(name)
    return v if v
    return yield(name) if block_given?
    return default[0] unless default.empty?
    raise KeyError.new("key not found: #{name.inspect}", receiver: self, key: name)
  end

  def delete(name)
    v = _get(name)
    if v
      _set(name, nil)
      v
    elsif block_given?
      yield name
    end
  end

  def key?(name)
    !_get(name).nil?
  end
  alias include? key?
  alias has_key? key?
  alias member? key?

  def value?(value)
    return nil unless value.is_a?(String)
    _pairs.any? { |_, v| v == value }
  end
  alias has_value? value?

  def key(value)
    value = env_string(value)
    pair = _pairs.find { |_, v| v == value }
    pair && pair[0]
  end

  def keys
    _pairs.map { |k, _| k }
  end

  def values
    _pairs.map { |_, v| v }
  end

  def each_pair
    return to_enum(:each_pair) { size } unless block_given?
    _pairs.each { |pair| yield pair }
    self
  end
  alias each each_pair

  def each_key
    return to_enum(:each_key) { size } unless block_given?
    _pairs.each { |k, _| yield k }
    self
  end

  def each_value
    return to_enum(:each_value) { size } unless block_given?
    _pairs.each { |_, v| yield v }
    self
  end

  def to_h
    h = {}
    _pairs.each do |k, v|
      if block_given?
        pair = yield(k, v)
        unless pair.is_a?(Array)
          raise TypeError, "wrong element type #{env_type_name(pair)} (expected array)"
        end
        if pair.size != 2
          raise ArgumentError, "element has wrong array length (expected 2, was #{pair.size})"
        end
        k, v = pair
      end
      h[k] = v
    end
    h
  end

  def to_hash
    to_h
  end

  def to_a
    _pairs
  end

  def size
    _pairs.size
  end
  alias length size

  def empty?
    _pairs.empty?
  end

  def select(&block)
    return to_enum(:select) { size } unless block
    to_h.select(&block)
  end
  alias filter select

  def reject(&block)
    return to_enum(:reject) { size } unless block
    to_h.reject(&block)
  end

  def filter_map(&block)
    return to_enum(:filter_map) unless block
    _pairs.filter_map(&block)
  end

  # Deletes the pairs the block says true for; self.
  def delete_if(&block)
    return to_enum(:delete_if) { size } unless block
    reject!(&block)
    self
  end

  # Like delete_if, but nil when nothing was deleted.
  def reject!
    return to_enum(:reject!) { size } unless block_given?
    deleted = false
    _pairs.each do |k, v|
      next unless yield(k, v)
      _set(k, nil)
      deleted = true
    end
    deleted ? self : nil
  end

  def keep_if(&block)
    return to_enum(:keep_if) { size } unless block
    select!(&block)
    self
  end

  def select!
    return to_enum(:select!) { size } unless block_given?
    reject! { |k, v| !yield(k, v) }
  end
  alias filter! select!

  def clear
    _pairs.each { |k, _| _set(k, nil) }
    self
  end

  def replace(hash)
    hash = env_hash(hash)
    hash.each { |k, v| env_string(k); env_string(v) }
    hash.each { |k, v| _set(k, v) }
    _pairs.each { |k, _| _set(k, nil) unless hash.key?(k) }
    self
  end

  def update(*hashes)
    hashes.each do |hash|
      env_hash(hash).each do |k, v|
        if block_given? && (old = _get(k))
          v = yield(k, old, v)
        end
        _set(k, v)
      end
    end
    self
  end
  alias merge! update

  def slice(*names)
    h = {}
    names.each do |k|
      v = _get(k)
      h[k] = v if v
    end
    h
  end

  def except(*names)
    h = to_h
    names.each { |k| h.delete(k) }
    h
  end

  def values_at(*names)
    names.map { |k| _get(k) }
  end

  def assoc(name)
    v = _get(name)
    v && [name, v]
  end

  def rassoc(value)
    return nil unless value.is_a?(String)
    _pairs.find { |_, v| v == value }
  end

  def invert
    to_h.invert
  end

  # Removes and returns the first [name, value], or nil if the environment is empty.
  def shift
    pair = _pairs.first
    _set(pair[0], nil) if pair
    pair
  end

  def rehash
    nil
  end

  def inspect
    to_h.inspect
  end

  def to_s
    "ENV"
  end

  def freeze
    raise TypeError, "cannot freeze ENV"
  end

  def dup
    raise TypeError, "Cannot dup ENV, use ENV.to_h to get a copy of ENV as a hash"
  end

  # CRuby 3.2+: ENV cannot be cloned either (3.1 made a useless copy).
  def clone(freeze: nil)
    raise TypeError, "cannot freeze ENV" if freeze == true
    raise TypeError, "Cannot clone ENV, use ENV.to_h to get a copy of ENV as a hash"
  end

  private :_get, :_set, :_pairs

  private

  def env_string(obj)
    return obj if obj.is_a?(String)
    return obj.to_str if obj.respond_to?(:to_str)
    raise TypeError, "no implicit conversion of #{env_type_name(obj)} into String"
  end

  def env_hash(obj)
    return obj if obj.is_a?(Hash)
    return obj.to_hash if obj.respond_to?(:to_hash)
    raise TypeError, "no implicit conversion of #{env_type_name(obj)} into Hash"
  end

  def env_type_name(obj)
    obj.nil? ? "nil" : obj == true ? "true" : obj == false ? "false" : obj.class.to_s
  end
end
