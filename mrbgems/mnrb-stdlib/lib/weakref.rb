# require "weakref": WeakRef, a delegator that does not keep its target alive, as CRuby's.
#
# The target is the value of the WeakRef in an ObjectSpace::WeakMap (weak on both sides), so the
# collector may free it; the WeakRef then raises WeakRef::RefError where it would have passed a
# call on. true, false and nil are never collected and are held directly.
require "delegate"

class WeakRef < Delegator
  VERSION = "0.1.3"

  class RefError < StandardError
  end

  # One map per class (per ractor on mnrb), made at load.
  @__map__ = ObjectSpace::WeakMap.new
  class << self
    attr_reader :__map__
  end

  def initialize(orig)
    if orig.nil? || orig == true || orig == false
      @delegate_sd_obj = orig
    else
      ::WeakRef.__map__[self] = orig
    end
    super
  end

  # Raises RefError once the target is gone, also for Delegator's checks that pass a block (so a
  # call on a dead reference raises RefError, not NoMethodError, as in CRuby).
  def __getobj__
    map = ::WeakRef.__map__
    return map[self] if map.key?(self)
    return @delegate_sd_obj if defined?(@delegate_sd_obj)
    __raise__ RefError, "Invalid Reference - probably recycled"
  end

  # The target is set once, by new.
  def __setobj__(obj)
  end

  def weakref_alive?
    ::WeakRef.__map__.key?(self) || defined?(@delegate_sd_obj) ? true : false
  end
end
