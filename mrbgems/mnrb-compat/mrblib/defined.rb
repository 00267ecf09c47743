# The Ruby half of `defined?(expr)` (mruby patch 0015 compiles it; src/defined.c has the half that
# needs the asking frame). Called on self by the compiled code; CRuby's descriptions, or nil.
module Kernel
  def __mnrb_defined_ivar(name)
    instance_variable_defined?(name) ? "instance-variable".freeze : nil
  end

  def __mnrb_defined_cvar(name)
    mod = is_a?(Module) ? self : self.class
    mod.class_variable_defined?(name) ? "class variable".freeze : nil
  rescue NameError
    nil
  end

  def __mnrb_defined_method(name)
    respond_to?(name, true) ? "method".freeze : nil
  end

  def __mnrb_defined_public_method(recv, name)
    recv.respond_to?(name) ? "method".freeze : nil
  end

  def __mnrb_defined_scoped(scope, name)
    (scope.is_a?(Module) && scope.const_defined?(name)) ? "constant".freeze : nil
  end

  def __mnrb_defined_yield(given)
    given ? "yield".freeze : nil
  end
end
