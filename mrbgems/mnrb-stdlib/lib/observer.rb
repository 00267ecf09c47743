# require "observer": Observable, the observer pattern as CRuby's (the observer gem): observers
# registered with a method name (update by default) are called with notify_observers' arguments,
# once changed has been set; notifying clears it.
module Observable
  VERSION = "0.1.2"

  def add_observer(observer, func = :update)
    @observer_peers = {} unless defined?(@observer_peers)
    unless observer.respond_to?(func)
      raise NoMethodError, "observer does not respond to `#{func}'"
    end
    @observer_peers[observer] = func
  end

  def delete_observer(observer)
    @observer_peers.delete(observer) if defined?(@observer_peers)
  end

  def delete_observers
    @observer_peers.clear if defined?(@observer_peers)
  end

  def count_observers
    defined?(@observer_peers) ? @observer_peers.size : 0
  end

  def changed(state = true)
    @observer_state = state
  end

  def changed?
    defined?(@observer_state) && @observer_state ? true : false
  end

  def notify_observers(*args)
    if defined?(@observer_state) && @observer_state
      if defined?(@observer_peers)
        @observer_peers.each { |observer, func| observer.__send__(func, *args) }
      end
      @observer_state = false
    end
  end
end
