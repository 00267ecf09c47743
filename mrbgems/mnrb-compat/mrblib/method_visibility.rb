# Module#public_instance_methods, #private_instance_methods, #protected_instance_methods,
# #public_method_defined?, #private_method_defined?, #protected_method_defined? and
# #public_instance_method (CRuby). mruby 3.3 records no method visibility (README: "Method
# visibility is not enforced", and Kernel#private_methods lists every method), so these answer
# the same way: every defined method counts under every visibility. That keeps the usual check
# `method_defined?(m) || private_method_defined?(m)` ("is m defined at all?") right, but a
# CRuby-private method such as Kernel#puts is also public here.
class Module
  def public_instance_methods(all = true) = instance_methods(all)
  def private_instance_methods(all = true) = instance_methods(all)
  def protected_instance_methods(all = true) = instance_methods(all)

  def public_method_defined?(name, inherit = true) = __mnrb_method_defined_vis(name, inherit)
  def private_method_defined?(name, inherit = true) = __mnrb_method_defined_vis(name, inherit)
  def protected_method_defined?(name, inherit = true) = __mnrb_method_defined_vis(name, inherit)

  def public_instance_method(name) = instance_method(name)

  def __mnrb_method_defined_vis(name, inherit)
    unless name.is_a?(Symbol) || name.is_a?(String)
      raise TypeError, "#{name.inspect} is not a symbol nor a string"
    end
    return method_defined?(name) if inherit
    instance_methods(false).include?(name.to_sym)
  end
end

module Kernel
  # Object#public_method: #method, since no method is private here (see above)
  def public_method(name) = method(name)
end

class Module
  # CRuby warns when a deprecated constant is read, and only with deprecation warnings on (off by
  # default); mnrb records nothing and answers self, as CRuby does.
  def deprecate_constant(*names)
    names.each do |n|
      raise NameError, "constant #{self}::#{n} not defined" unless const_defined?(n, false)
    end
    self
  end
end

# private_class_method, public_class_method, private_constant and public_constant (CRuby): mruby 3.3
# has no method or constant visibility (README, "Where mnrb differs"), so they change nothing, but
# they take what CRuby takes and answer what it answers: names as Symbols, Strings (or to_str), or
# one Array of them; a name the singleton class (the module, for constants) lacks is CRuby's
# NameError; the result is the receiver.
class Module
  def private_class_method(*names) = __mnrb_class_method_names(names)
  def public_class_method(*names) = __mnrb_class_method_names(names)

  def private_constant(*names) = __mnrb_constant_names(names)
  def public_constant(*names) = __mnrb_constant_names(names)

  def __mnrb_visibility_name(name)
    return name if name.is_a?(Symbol)
    return name.to_sym if name.is_a?(String)
    str = String.try_convert(name) unless name.is_a?(Array)
    raise TypeError, "#{name.inspect} is not a symbol nor a string" unless str
    str.to_sym
  end

  def __mnrb_class_method_names(names)
    names = names[0] if names.size == 1 && names[0].is_a?(Array)
    sc = singleton_class
    names.each do |n|
      sym = __mnrb_visibility_name(n)
      next if sc.method_defined?(sym)
      raise NameError.new("undefined method '#{sym}' for class '#{sc.inspect}'", sym, receiver: sc)
    end
    self
  end

  def __mnrb_constant_names(names)
    names.each do |n|
      sym = __mnrb_visibility_name(n)
      next if const_defined?(sym, false)
      raise NameError.new("constant #{self}::#{sym} not defined", sym, receiver: self)
    end
    self
  end
end
