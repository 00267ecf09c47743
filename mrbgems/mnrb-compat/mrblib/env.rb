class MnrbEnv
  def fetch(key, *default)
    return self[key] if key?(key)
    return yield(key) if block_given?
    return default[0] unless default.empty?
    raise KeyError, "key not found: #{key.inspect}"
  end

  def keys
    to_h.keys
  end

  def inspect
    to_h.inspect
  end
end
