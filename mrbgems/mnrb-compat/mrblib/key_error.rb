# KeyError as CRuby's: KeyError.new(message = nil, receiver:, key:), #receiver and #key (ArgumentError
# "no receiver is available" / "no key is available" when not given), and Hash#fetch's and
# ENV.fetch's KeyError "key not found: :a" naming both (mruby-hash-ext's said "Key not found" and
# set neither).

class KeyError
  def initialize(message = nil, receiver: (no_receiver = true; nil), key: (no_key = true; nil))
    @receiver = receiver unless no_receiver
    @key = key unless no_key
    @__mnrb_has = (no_receiver ? 0 : 1) | (no_key ? 0 : 2)
    super(message)
  end

  def receiver
    raise ArgumentError, "no receiver is available" unless (@__mnrb_has.to_i & 1) == 1
    @receiver
  end

  def key
    raise ArgumentError, "no key is available" unless (@__mnrb_has.to_i & 2) == 2
    @key
  end
end

class Hash
  def fetch(key, default = (no_default = true; nil), &block)
    return self[key] if key?(key)
    if block
      warn "block supersedes default value argument", uplevel: 1 if !no_default && $VERBOSE
      return block.call(key)
    end
    return default unless no_default
    raise KeyError.new("key not found: #{key.inspect}", receiver: self, key: key)
  end
end
