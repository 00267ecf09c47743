# mutex_m: CRuby's Mutex_m (`require "mutex_m"`): an object or class that includes or extends it
# gets a Mutex of its own and lock, unlock, try_lock, locked? and synchronize (each also as mu_*).

module Mutex_m
  VERSION = "0.2.0"

  # The short names as aliases of the mu_* methods, in +cl+.
  def Mutex_m.define_aliases(cl)
    cl.module_eval do
      alias_method :locked?, :mu_locked?
      alias_method :lock, :mu_lock
      alias_method :unlock, :mu_unlock
      alias_method :try_lock, :mu_try_lock
      alias_method :synchronize, :mu_synchronize
    end
  end

  def Mutex_m.append_features(cl)
    super
    define_aliases(cl) unless cl.instance_of?(Module)
  end

  def Mutex_m.extend_object(obj)
    super
    obj.mu_extended
  end

  def mu_extended
    Mutex_m.define_aliases(singleton_class) unless defined?(locked?) && defined?(lock) &&
                                                   defined?(unlock) && defined?(try_lock) &&
                                                   defined?(synchronize)
    mu_initialize
  end

  def mu_synchronize(&block)
    @_mutex.synchronize(&block)
  end

  def mu_locked?
    @_mutex.locked?
  end

  def mu_try_lock
    @_mutex.try_lock
  end

  def mu_lock
    @_mutex.lock
  end

  def mu_unlock
    @_mutex.unlock
  end

  def sleep(timeout = nil)
    @_mutex.sleep(timeout)
  end

  private

  def mu_initialize
    @_mutex = Thread::Mutex.new
  end

  def initialize(*args, **kw, &block)
    mu_initialize
    super
  end
end
