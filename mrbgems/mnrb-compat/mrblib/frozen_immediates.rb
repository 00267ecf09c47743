# Integers, Floats, Symbols, nil, true and false are frozen, as in CRuby: setting an instance
# variable raises FrozenError (mruby: ArgumentError "cannot set instance variable").
[Integer, Float, Symbol, NilClass, TrueClass, FalseClass].each do |klass|
  klass.class_eval do
    def instance_variable_set(name, value)
      instance_variable_get(name) # NameError for a name that is not @ivar-like
      raise FrozenError.new("can't modify frozen #{self.class}: #{inspect}", receiver: self)
    end
  end
end
