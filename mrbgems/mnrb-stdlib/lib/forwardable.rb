# require "forwardable": delegation of methods to an object reached through an accessor, as
# CRuby's Forwardable (for a class's instances) and SingleForwardable (for one object) have it.
#
# The accessor is an instance variable (:@ivar), a method name (:meth), or, as in CRuby, any
# Ruby expression given as a String or Symbol ("@a.b", :"self.class"), evaluated in the
# receiver. A delegator passes its arguments, keywords and block on, and returns the accessed
# method's result. def_delegators skips __send__ and __id__, as CRuby does.
module Forwardable
  VERSION = "1.3.3"
  FORWARDABLE_VERSION = VERSION

  def instance_delegate(hash)
    hash.each do |methods, accessor|
      Array(methods).each { |method| def_instance_delegator(accessor, method) }
    end
  end

  def def_instance_delegators(accessor, *methods)
    Forwardable.__delegable__(methods).each { |method| def_instance_delegator(accessor, method) }
  end

  def def_instance_delegator(accessor, method, ali = method)
    body = Forwardable.__delegation__(accessor, method)
    if is_a?(Module)
      define_method(ali.to_sym, &body)
    else
      define_singleton_method(ali.to_sym, &body)   # an object extended with Forwardable, as CRuby
    end
    ali.to_sym
  end

  alias delegate instance_delegate
  alias def_delegators def_instance_delegators
  alias def_delegator def_instance_delegator

  # The methods def_delegators delegates: all but __send__ and __id__, as CRuby's.
  def self.__delegable__(methods)
    methods.reject { |m| m.to_s == "__send__" || m.to_s == "__id__" }
  end

  # The body of a delegator (for define_method or define_singleton_method): the accessed object's
  # method, with the arguments, keywords and block passed on.
  def self.__delegation__(accessor, method)
    reach = __accessor__(accessor)
    method = method.to_sym
    proc { |*args, **kw, &blk| reach.call(self).__send__(method, *args, **kw, &blk) }
  end

  # A proc that answers the accessed object for a receiver.
  def self.__accessor__(accessor)
    name = accessor.to_s
    if name.match?(Regexp.new('\A@[A-Za-z_]\w*\z'))
      ivar = name.to_sym
      ->(obj) { obj.instance_variable_get(ivar) }
    elsif name.match?(Regexp.new('\A[A-Za-z_]\w*[?!]?\z'))
      meth = name.to_sym
      ->(obj) { obj.__send__(meth) }
    else
      ->(obj) { obj.instance_eval(name) }
    end
  end
end

module SingleForwardable
  def single_delegate(hash)
    hash.each do |methods, accessor|
      Array(methods).each { |method| def_single_delegator(accessor, method) }
    end
  end

  def def_single_delegators(accessor, *methods)
    Forwardable.__delegable__(methods).each { |method| def_single_delegator(accessor, method) }
  end

  def def_single_delegator(accessor, method, ali = method)
    define_singleton_method(ali.to_sym, &Forwardable.__delegation__(accessor, method))
    ali.to_sym
  end

  alias delegate single_delegate
  alias def_delegators def_single_delegators
  alias def_delegator def_single_delegator
end
