# require "observer" as CRuby's: Observable calls each observer's method (update, or the name
# given) with notify_observers' arguments, only after changed, and clears the changed state.
require "observer"

class ObserverLibTest < MnTest::Case
  class Ticker
    include Observable
    def tick(v)
      changed
      notify_observers(:tick, v)
    end
  end

  class Watcher
    attr_reader :got
    def initialize = @got = []
    def update(*args) = @got << args
    def other(*args) = @got << [:other, *args]
  end

  def test_notifies_observers_after_changed
    t = Ticker.new
    a = Watcher.new
    b = Watcher.new
    t.add_observer(a)
    t.add_observer(b, :other)
    assert_equal 2, t.count_observers
    t.tick(5)
    assert_equal [[:tick, 5]], a.got
    assert_equal [[:other, :tick, 5]], b.got
  end

  def test_nothing_without_changed_and_changed_clears
    t = Ticker.new
    a = Watcher.new
    t.add_observer(a)
    refute t.changed?
    t.notify_observers(1)
    assert_equal [], a.got
    t.changed
    assert t.changed?
    t.notify_observers(1)
    refute t.changed?
    t.notify_observers(2)
    assert_equal [[1]], a.got
    t.changed
    t.changed(false)
    refute t.changed?
  end

  def test_delete_observers
    t = Ticker.new
    a = Watcher.new
    b = Watcher.new
    t.add_observer(a)
    t.add_observer(b)
    t.delete_observer(a)
    t.tick(1)
    assert_equal [], a.got
    assert_equal 1, b.got.size
    t.delete_observers
    assert_equal 0, t.count_observers
  end

  def test_observer_must_respond
    e = assert_raise(NoMethodError) { Ticker.new.add_observer(Object.new) }
    assert_equal "observer does not respond to `update'", e.message.lines.first.chomp
    got = []
    t = Ticker.new
    t.add_observer(proc { |*a| got << a }, :call)
    t.tick(2)
    assert_equal [[:tick, 2]], got
  end

  def test_loads_and_works_in_another_ractor
    mnrb_only
    r = Ractor.new do
      require "observer"
      o = Object.new.extend(Observable)
      got = []
      o.add_observer(proc { |x| got << x }, :call)
      o.changed
      o.notify_observers(7)
      got
    end
    assert_equal [7], r.take
  end
end
