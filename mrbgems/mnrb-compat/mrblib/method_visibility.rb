# Module#public_instance_method and Kernel#public_method (CRuby): #instance_method / #method, refused
# with CRuby's NameError for a private or protected method. The lists (public_instance_methods...)
# and *_method_defined? are C (mruby-metaprog, patches/mruby/0122); the visibility itself lives in
# the method tables (patches/mruby/0120).
class Module
  def public_instance_method(name)
    m = instance_method(name)
    vis = if private_method_defined?(name) then "private"
          elsif protected_method_defined?(name) then "protected"
          end
    raise NameError.new("method '#{name}' for #{is_a?(Class) ? 'class' : 'module'} '#{self}' is #{vis}", name.to_sym) if vis
    m
  end
end

module Kernel
  def public_method(name)
    m = method(name)
    vis = __mnrb_method_visibility(name)
    if vis == :private || vis == :protected
      raise NameError.new("method '#{name}' for class '#{m.owner}' is #{vis}", name.to_sym)
    end
    m
  end
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

module Kernel
  alias_method :__mnrb_methods, :methods

  # CRuby: methods(false) is the receiver's own singleton methods. mruby's listed its class's own
  # methods when the receiver had no singleton class ([] in CRuby).
  def methods(regular = true)
    regular ? __mnrb_methods : singleton_methods(false)
  end
end
