# ENV as CRuby's: a Hash-like view of the process environment, on src/env.c's three primitives
# (__mnrb_env_get, __mnrb_env_set, __mnrb_env_pairs), which serialise every access process-wide.
# Names and values are Strings (TypeError otherwise, as CRuby); values read are new frozen Strings.
# Iteration walks a snapshot, so the block may change ENV. Changes are the process's: children
# (spawn, system, ``) see them.
# As CRuby's, ENV is an Object with singleton methods (ENV.class is Object; no class of its own).
class << ENV
  include Enumerable

  def [](name)
    __mnrb_env_get(name)
  end

  def []=(name, value)
    __mnrb_env_set(name, value)
  end

  def store(name, value)
    __mnrb_env_set(name, value)
  end

  def fetch(name, *default)
    if default.size > 1
      raise ArgumentError, "wrong number of arguments (given #{default.size + 1}, expected 1..2)"
    end
    v = __mnrb_env_get(name)
    return v if v
    return yield(name) if block_given?
    return default[0] unless default.empty?
    raise KeyError.new("key not found: #{name.inspect}", receiver: self, key: name)
  end

  def delete(name)
    v = __mnrb_env_get(name)
    if v
      __mnrb_env_set(name, nil)
      v
    elsif block_given?
      yield name
    end
  end

  def key?(name)
    !__mnrb_env_get(name).nil?
  end
  alias include? key?
  alias has_key? key?
  alias member? key?

  def value?(value)
    return nil unless value.is_a?(String)
    __mnrb_env_pairs.any? { |_, v| v == value }
  end
  alias has_value? value?

  def key(value)
    value = __mnrb_env_string(value)
    pair = __mnrb_env_pairs.find { |_, v| v == value }
    pair && pair[0]
  end

  def keys
    __mnrb_env_pairs.map { |k, _| k }
  end

  def values
    __mnrb_env_pairs.map { |_, v| v }
  end

  def each_pair
    return to_enum(:each_pair) { size } unless block_given?
    __mnrb_env_pairs.each { |pair| yield pair }
    self
  end
  alias each each_pair

  def each_key
    return to_enum(:each_key) { size } unless block_given?
    __mnrb_env_pairs.each { |k, _| yield k }
    self
  end

  def each_value
    return to_enum(:each_value) { size } unless block_given?
    __mnrb_env_pairs.each { |_, v| yield v }
    self
  end

  def to_h
    h = {}
    __mnrb_env_pairs.each do |k, v|
      if block_given?
        pair = yield(k, v)
        unless pair.is_a?(Array)
          raise TypeError, "wrong element type #{__mnrb_env_type_name(pair)} (expected array)"
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
    __mnrb_env_pairs
  end

  def size
    __mnrb_env_pairs.size
  end
  alias length size

  def empty?
    __mnrb_env_pairs.empty?
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
    __mnrb_env_pairs.filter_map(&block)
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
    __mnrb_env_pairs.each do |k, v|
      next unless yield(k, v)
      __mnrb_env_set(k, nil)
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
    __mnrb_env_pairs.each { |k, _| __mnrb_env_set(k, nil) }
    self
  end

  def replace(hash)
    hash = __mnrb_env_hash(hash)
    hash.each { |k, v| __mnrb_env_string(k); __mnrb_env_string(v) }
    hash.each { |k, v| __mnrb_env_set(k, v) }
    __mnrb_env_pairs.each { |k, _| __mnrb_env_set(k, nil) unless hash.key?(k) }
    self
  end

  def update(*hashes)
    hashes.each do |hash|
      __mnrb_env_hash(hash).each do |k, v|
        if block_given? && (old = __mnrb_env_get(k))
          v = yield(k, old, v)
        end
        __mnrb_env_set(k, v)
      end
    end
    self
  end
  alias merge! update

  def slice(*names)
    h = {}
    names.each do |k|
      v = __mnrb_env_get(k)
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
    names.map { |k| __mnrb_env_get(k) }
  end

  def assoc(name)
    v = __mnrb_env_get(name)
    v && [name, v]
  end

  def rassoc(value)
    return nil unless value.is_a?(String)
    __mnrb_env_pairs.find { |_, v| v == value }
  end

  def invert
    to_h.invert
  end

  # Removes and returns the first [name, value], or nil if the environment is empty.
  def shift
    pair = __mnrb_env_pairs.first
    __mnrb_env_set(pair[0], nil) if pair
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

  private

  def __mnrb_env_string(obj)
    return obj if obj.is_a?(String)
    return obj.to_str if obj.respond_to?(:to_str)
    raise TypeError, "no implicit conversion of #{__mnrb_env_type_name(obj)} into String"
  end

  def __mnrb_env_hash(obj)
    return obj if obj.is_a?(Hash)
    return obj.to_hash if obj.respond_to?(:to_hash)
    raise TypeError, "no implicit conversion of #{__mnrb_env_type_name(obj)} into Hash"
  end

  def __mnrb_env_type_name(obj)
    obj.nil? ? "nil" : obj == true ? "true" : obj == false ? "false" : obj.class.to_s
  end
end
