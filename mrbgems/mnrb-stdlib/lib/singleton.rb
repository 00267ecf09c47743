# require "singleton": the Singleton module as CRuby has it. A class that includes it has one
# instance, made at the first call of Klass.instance (under a per-class mutex, so threads racing
# to the first call all get the same object); Klass.new raises NoMethodError;
# the instance's clone and dup raise TypeError "can't clone (dup) instance of singleton Klass";
# a subclass, or a clone of the class, has an instance of its own. Marshal round-trips the
# instance to itself (_dump is empty, _load answers Klass.instance). new and allocate are made
# private class methods, as CRuby does.
module Singleton
  def clone
    raise TypeError, "can't clone instance of singleton #{self.class}"
  end

  def dup
    raise TypeError, "can't dup instance of singleton #{self.class}"
  end

  def _dump(depth = -1)
    ""
  end

  module SingletonClassMethods
    def instance
      @singleton__instance__ || @singleton__mutex__.synchronize do
        @singleton__instance__ ||= Singleton.__make__(self)
      end
    end

    def clone
      Singleton.__init__(super)
    end

    def _load(str)
      instance
    end

    def inherited(sub)
      super
      Singleton.__init__(sub)
    end
  end

  def self.__make__(klass)
    klass.send(:new)
  end

  def self.__init__(klass)
    klass.instance_variable_set(:@singleton__instance__, nil)
    klass.instance_variable_set(:@singleton__mutex__, Thread::Mutex.new)
    klass
  end

  def self.append_features(mod)
    unless mod.instance_of?(Class)
      raise TypeError, "Inclusion of the OO-Singleton module in module #{mod}"
    end
    super
  end

  # `obj.extend(Singleton)` is refused, as CRuby's (its Singleton has no extend_object)
  def self.extend_object(obj)
    raise NoMethodError, "undefined method 'extend_object' for module Singleton"
  end

  def self.included(klass)
    super
    klass.private_class_method :new, :allocate
    klass.extend(SingletonClassMethods)
    Singleton.__init__(klass)
  end
end
