# require "delegate": objects that stand in for another object, as CRuby's Delegator,
# SimpleDelegator and DelegateClass(superclass) behave.
#
# A Delegator is a BasicObject with the public part of Kernel (class, is_a?, respond_to?, send,
# freeze, ...) answered by itself, and everything else (to_s, inspect, hash, <=>, ===, =~ and the
# target's own methods) passed to the target, __getobj__, by method_missing. Equality answers for
# the target, except that a delegator always equals itself.
#
# Kernel's private methods (puts, raise, format...: mruby patch 0120) stay private in the copy and
# its public ones not kept below are left out of the delegator's copy of Kernel, as CRuby does,
# so that a target's own public method of that name (Array#select, IO#puts, Thread#raise) is the
# one called; when the target has none, Kernel's runs on the delegator. The few whose meaning
# depends on the calling frame (block_given?, binding, __method__...) and mnrb's own helpers
# (__mnrb_*, which compiled code calls on self) stay, since passing them on would change them.
class Delegator < BasicObject
  VERSION = "0.4.0"

  # Kernel's methods CRuby makes public, less those a delegator passes on.
  KERNEL_KEPT = %i(class clone define_singleton_method display dup enum_for eql? extend freeze
    frozen? instance_of? instance_variable_defined? instance_variable_get instance_variable_set
    instance_variables is_a? itself kind_of? method methods nil? object_id private_methods
    protected_methods public_method public_methods public_send remove_instance_variable
    respond_to? send singleton_class singleton_method singleton_methods tap then to_enum
    yield_self
    block_given? iterator? binding __method__ __callee__ __dir__ local_variables eval lambda proc
    require_relative caller caller_locations initialize_copy respond_to_missing?).freeze
  private_constant :KERNEL_KEPT

  kernel = ::Kernel.dup
  kernel.class_eval do
    alias_method :__raise__, :raise
    instance_methods(false).each do |m|
      next if KERNEL_KEPT.include?(m) || m == :__raise__ || m.to_s.start_with?("__")
      undef_method m
    end
  end
  include kernel

  # The class body of a subclass nested in a module reaches top-level constants through here,
  # since BasicObject's ancestors do not include Object.
  def self.const_missing(name)
    ::Object.const_get(name)
  end

  def initialize(obj)
    __setobj__(obj)
  end

  def method_missing(m, *args, **kw, &block)
    delegated = true
    target = __getobj__ { delegated = false }
    if delegated && ::Delegator.__responds__(target, m, false)
      target.__send__(m, *args, **kw, &block)
    elsif ::Kernel.method_defined?(m) || ::Kernel.private_method_defined?(m)
      ::Kernel.instance_method(m).bind_call(self, *args, **kw, &block)
    else
      super
    end
  end

  def respond_to_missing?(m, include_private)
    delegated = true
    target = __getobj__ { delegated = false }
    delegated && ::Delegator.__responds__(target, m, include_private)
  end

  # The target's respond_to?, also when the target is a BasicObject. A method the target has from
  # Kernel and a delegator does not answer itself is one CRuby makes private (puts, raise...):
  # it counts only with include_private, as in CRuby, so that it runs on the delegator.
  def self.__responds__(target, m, include_private)
    return false unless ::Kernel.instance_method(:respond_to?).bind_call(target, m, include_private)
    return true if include_private || !::Kernel.method_defined?(m) || method_defined?(m) ||
                   m == :hash || m == :<=> || m == :=~ || m == :!~ || m == :===
    ::Kernel.instance_method(:method).bind_call(target, m).owner != ::Kernel
  end

  # CRuby's core == methods ask a delegator given as their argument to compare itself (the
  # argument responds to to_str, to_ary...); mruby's C conversions do not see a method_missing,
  # so a delegator argument is compared by its target here.
  def ==(obj)
    return true if obj.equal?(self)
    obj = obj.__getobj__ if ::Delegator === obj
    __getobj__ == obj
  end

  def !=(obj)
    return false if obj.equal?(self)
    obj = obj.__getobj__ if ::Delegator === obj
    __getobj__ != obj
  end

  # Passed on as method_missing would, but defined: mruby's string interpolation and puts convert
  # with to_s only when the object has the method itself.
  def to_s
    __getobj__.to_s
  end

  def inspect
    __getobj__.inspect
  end

  def eql?(obj)
    return true if obj.equal?(self)
    obj.eql?(__getobj__)
  end

  def !
    !__getobj__
  end

  def methods(all = true)
    __getobj__.methods(all) | super
  end

  def public_methods(all = true)
    __getobj__.public_methods(all) | super
  end

  def protected_methods(all = true)
    __getobj__.protected_methods(all) | super
  end

  def __getobj__
    __raise__ ::NotImplementedError, "need to define '__getobj__'"
  end

  def __setobj__(obj)
    __raise__ ::NotImplementedError, "need to define '__setobj__'"
  end

  # Marshal keeps the delegator's own instance variables beside the target, in CRuby's layout.
  def marshal_dump
    ivars = instance_variables.reject { |v| v.to_s.start_with?("@delegate_") }
    [:__v2__, ivars, ivars.map { |v| instance_variable_get(v) }, __getobj__]
  end

  def marshal_load(data)
    version, vars, values, obj = data
    if version == :__v2__
      vars.each_with_index { |v, i| instance_variable_set(v, values[i]) }
      __setobj__(obj)
    else
      __setobj__(data)
    end
  end

  # A copy delegates to a copy of the target. CRuby calls initialize_clone or initialize_dup;
  # mnrb's clone and dup call initialize_copy, which dups the target.
  def initialize_clone(obj, freeze: nil)
    __setobj__(obj.__getobj__.clone(freeze: freeze))
  end

  def initialize_dup(obj)
    __setobj__(obj.__getobj__.dup)
  end

  def initialize_copy(obj)
    __setobj__(obj.__getobj__.dup)
  end

  # Freezing a delegator freezes its target too.
  def freeze
    unless frozen?
      __getobj__.freeze
      super()
    end
    self
  end

  def self.public_api
    public_instance_methods
  end

  # A method body that calls mid on the target, for DelegateClass.
  def self.delegating_block(mid)
    lambda { |*args, **kw, &block| __getobj__.__send__(mid, *args, **kw, &block) }
  end
end

# Delegates to the object given to new or __setobj__.
class SimpleDelegator < Delegator
  def __getobj__
    unless defined?(@delegate_sd_obj)
      return yield if block_given?
      __raise__ ::ArgumentError, "not delegated"
    end
    @delegate_sd_obj
  end

  def __setobj__(obj)
    __raise__ ::ArgumentError, "cannot delegate to self" if equal?(obj)
    @delegate_sd_obj = obj
  end
end

# A class whose instances delegate superclass's public instance methods to their target, as a
# base for `class Name < DelegateClass(Superclass)`. Left out, besides what Delegator answers
# itself: constructors and hooks (which mnrb lists as public) and Kernel's methods other than
# hash and <=> (CRuby's are private, or answered by Delegator).
def DelegateClass(superclass, &block)
  klass = Class.new(Delegator)
  ignored = Delegator.public_api + %i(to_s inspect =~ !~ === initialize initialize_copy
    initialize_clone initialize_dup method_missing respond_to_missing? singleton_method_added
    singleton_method_removed singleton_method_undefined)
  methods = superclass.public_instance_methods.reject do |m|
    ignored.include?(m) || m.to_s.start_with?("__") ||
      (superclass.instance_method(m).owner == Kernel && m != :hash && m != :<=>)
  end
  klass.module_eval do
    def __getobj__
      unless defined?(@delegate_dc_obj)
        return yield if block_given?
        __raise__ ::ArgumentError, "not delegated"
      end
      @delegate_dc_obj
    end

    def __setobj__(obj)
      __raise__ ::ArgumentError, "cannot delegate to self" if equal?(obj)
      @delegate_dc_obj = obj
    end

    methods.each { |m| define_method(m, Delegator.delegating_block(m)) }
  end
  # Reflection sees the superclass's methods as the class's own.
  klass.define_singleton_method(:public_instance_methods) do |all = true|
    super(all) | superclass.public_instance_methods
  end
  klass.define_singleton_method(:instance_methods) do |all = true|
    super(all) | superclass.instance_methods
  end
  klass.define_singleton_method(:public_instance_method) do |name|
    super(name)
  rescue NameError
    raise unless superclass.public_instance_methods.include?(name)
    superclass.public_instance_method(name)
  end
  klass.define_singleton_method(:instance_method) do |name|
    super(name)
  rescue NameError
    raise unless superclass.instance_methods.include?(name)
    superclass.instance_method(name)
  end
  klass.module_eval(&block) if block
  klass
end
