# require "mutex_m" as CRuby's: an object that extends Mutex_m, or an instance of a class that
# includes it, is its own lock (lock, unlock, try_lock, locked?, synchronize and the mu_* names).
begin
  require "mutex_m"
rescue LoadError
end

class MutexMTest < MnTest::Case
  def setup
    skip "no mutex_m (a bundled gem since CRuby 3.4)" unless defined?(Mutex_m) || mnrb?
  end

  def test_an_extended_object
    o = Object.new
    o.extend(Mutex_m)
    assert_equal true, o.synchronize { o.locked? }
    refute o.locked?
    assert o.try_lock
    assert o.locked?
    refute o.try_lock
    o.unlock
    assert_raise(ThreadError) { o.unlock }
  end

  def test_an_including_class_keeps_its_initialize
    klass = Class.new do
      include Mutex_m
      attr_reader :a
      def initialize(a)
        super()
        @a = a
      end
    end
    c = klass.new(1)
    assert_equal 1, c.a
    assert_equal 2, c.synchronize { 2 }
    assert_equal klass, klass.instance_method(:lock).owner
    assert_equal [:mu_extended, :mu_lock, :mu_locked?, :mu_synchronize, :mu_try_lock, :mu_unlock, :sleep],
                 Mutex_m.instance_methods.sort
  end

  def test_it_excludes_other_threads
    o = Object.new.extend(Mutex_m)
    count = 0
    threads = 4.times.map { Thread.new { 500.times { o.synchronize { v = count; Thread.pass; count = v + 1 } } } }
    threads.each(&:join)
    assert_equal 2000, count
  end
end
