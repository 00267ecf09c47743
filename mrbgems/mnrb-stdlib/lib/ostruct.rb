# require "ostruct": OpenStruct, a hash of attributes read and written as methods, as CRuby's.
#
# Attributes live in @table (Symbol keys, insertion order). Each attribute set gets a reader and
# a writer defined on the object's singleton class, as CRuby defines them, so respond_to? and
# methods list them; they override a method the object already had (object_id, zip), except one
# that OpenStruct itself or a subclass of it defines (to_h, [], each_pair ...), which is left as
# it is and reached by [] only. An attribute never set reads as nil; assigning one through
# method_missing (os.name = v) creates it. A frozen OpenStruct raises FrozenError on writes.
class OpenStruct
  def initialize(hash = nil)
    @table = {}
    return unless hash
    hash.each_pair { |k, v| self[k] = v }
  end

  def [](name)
    @table[name.to_sym]
  end

  def []=(name, value)
    name = name.to_sym
    raise FrozenError, "can't modify frozen #{self.class}: #{inspect}" if frozen?
    __define_accessors__(name) unless @table.key?(name)
    @table[name] = value
  end

  def to_h
    return @table.dup unless block_given?
    h = {}
    @table.each { |k, v| pair = yield(k, v); h[pair[0]] = pair[1] }
    h
  end

  def each_pair(&block)
    return to_enum(:each_pair) { @table.size } unless block
    @table.each_pair(&block)
    self
  end

  def dig(name, *names)
    begin
      name = name.to_sym
    rescue NoMethodError
      raise TypeError, "#{name.inspect} is not a symbol nor a string"
    end
    value = @table[name]
    names.empty? || value.nil? ? value : value.dig(*names)
  end

  def delete_field(name)
    sym = name.to_sym
    unless @table.key?(sym)
      return yield if block_given?
      raise NameError.new("no field '#{sym}' in #{inspect}", sym)
    end
    singleton_class.__send__(:remove_method, sym) rescue nil
    singleton_class.__send__(:remove_method, :"#{sym}=") rescue nil
    @table.delete(sym)
  end

  def respond_to_missing?(name, include_private = false)
    @table.key?(name.to_s.chomp("=").to_sym) || super
  end

  def method_missing(name, *args)
    str = name.to_s
    if str.end_with?("=") && args.size == 1
      self[str.chomp("=")] = args[0]
    elsif args.empty? && !str.end_with?("=")
      @table[name]
    else
      raise NoMethodError.new("undefined method '#{name}' for an instance of #{self.class}", name, args)
    end
  end

  def ==(other)
    other.is_a?(OpenStruct) && @table == other.__table__
  end

  def eql?(other)
    other.is_a?(OpenStruct) && @table.eql?(other.__table__)
  end

  def hash
    @table.hash
  end

  def inspect
    stack = (Thread.current[:__ostruct_inspect__] ||= [])
    return "#<#{self.class} ...>" if stack.any? { |o| o.equal?(self) }
    stack << self
    begin
      fields = @table.map { |k, v| " #{k}=#{v.inspect}" }.join(",")
      "#<#{self.class}#{fields}>"
    ensure
      stack.pop
    end
  end
  alias to_s inspect

  def initialize_copy(orig)
    super
    @table = @table.dup
    @table.each_key { |k| __define_accessors__(k) }
  end

  def freeze
    @table.freeze
    super
  end

  def __table__
    @table
  end
  protected :__table__

  private

  def __define_accessors__(name)
    return if __os_method__?(name)
    sc = singleton_class
    sc.__send__(:define_method, name) { @table[name] }
    sc.__send__(:define_method, :"#{name}=") { |v| self[name] = v }
  end

  # True for a method that OpenStruct or a subclass defines: an attribute must not hide it.
  def __os_method__?(name)
    return false unless respond_to?(name, true)
    owner = method(name).owner
    owner.is_a?(Class) && owner <= OpenStruct
  end
end
