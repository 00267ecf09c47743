# Integers, Floats, Symbols, nil, true and false are frozen, as in CRuby: setting an instance
# variable raises FrozenError (mruby: ArgumentError "cannot set instance variable").
# One class body each, not a loop of class_eval blocks: a built-in method defined by a class body
# names that body's static irep (mruby patches 0072, 0133), so the six method tables stay shared
# between ractors (0077); defined from a block, each kept the block of its iteration (6 tables a
# ractor's own).
class Integer
  def instance_variable_set(name, value)
    instance_variable_get(name) # NameError for a name that is not @ivar-like
    raise FrozenError.new("can't modify frozen #{self.class}: #{inspect}", receiver: self)
  end
end

class Float
  def instance_variable_set(name, value)
    instance_variable_get(name)
    raise FrozenError.new("can't modify frozen #{self.class}: #{inspect}", receiver: self)
  end
end

class Symbol
  def instance_variable_set(name, value)
    instance_variable_get(name)
    raise FrozenError.new("can't modify frozen #{self.class}: #{inspect}", receiver: self)
  end
end

class NilClass
  def instance_variable_set(name, value)
    instance_variable_get(name)
    raise FrozenError.new("can't modify frozen #{self.class}: #{inspect}", receiver: self)
  end
end

class TrueClass
  def instance_variable_set(name, value)
    instance_variable_get(name)
    raise FrozenError.new("can't modify frozen #{self.class}: #{inspect}", receiver: self)
  end
end

class FalseClass
  def instance_variable_set(name, value)
    instance_variable_get(name)
    raise FrozenError.new("can't modify frozen #{self.class}: #{inspect}", receiver: self)
  end
end
