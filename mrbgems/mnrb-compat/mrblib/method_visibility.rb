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

