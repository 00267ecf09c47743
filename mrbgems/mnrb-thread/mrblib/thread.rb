# Parts of the thread API that read best in Ruby. Built-in (cdump'd) code is never preempted, so
# these methods are as atomic as C ones.

class Mutex
  def synchronize
    raise ThreadError, "must be called with a block" unless block_given?
    lock
    begin
      yield
    ensure
      unlock
    end
  end
end

class Thread
  # Thread.new(k: 1) { |k:| }: C can only pass keywords on as one more positional Hash, a splat here
  # passes them as keywords (to the block, or to a subclass's initialize).
  def self.__mnrb_call_with_keywords(recv, mid, args, kw, blk) = recv.__send__(mid, *args, **kw, &blk)
  private_class_method :__mnrb_call_with_keywords

  # Thread#[] with a default block-free fetch, as CRuby's Thread#fetch.
  def fetch(key, *default)
    raise ArgumentError, "wrong number of arguments (given #{default.size + 1}, expected 1..2)" if default.size > 1
    return self[key] if key?(key)
    return yield(key) if block_given?
    return default[0] unless default.empty?
    raise KeyError, "key not found: #{key.inspect}"
  end
end

class Monitor
  def initialize
    @mon_mutex = Mutex.new
    @mon_owner = nil
    @mon_count = 0
  end

  def enter
    if @mon_owner == Thread.current
      @mon_count += 1
    else
      @mon_mutex.lock
      @mon_owner = Thread.current
      @mon_count = 1
    end
    nil
  end
  alias mon_enter enter

  def try_enter
    if @mon_owner == Thread.current
      @mon_count += 1
      return true
    end
    return false unless @mon_mutex.try_lock
    @mon_owner = Thread.current
    @mon_count = 1
    true
  end
  alias try_mon_enter try_enter
  alias mon_try_enter try_enter

  def exit
    mon_check_owner
    @mon_count -= 1
    if @mon_count == 0
      @mon_owner = nil
      @mon_mutex.unlock
    end
    nil
  end
  alias mon_exit exit

  def synchronize
    enter
    begin
      yield
    ensure
      self.exit
    end
  end
  alias mon_synchronize synchronize

  def mon_locked?
    @mon_mutex.locked?
  end

  def mon_owned?
    @mon_mutex.locked? && @mon_owner == Thread.current
  end

  def mon_check_owner
    raise ThreadError, "current fiber not owner" unless @mon_owner == Thread.current
  end

  def new_cond
    MonitorMixin::ConditionVariable.new(self)
  end

  # Used by MonitorMixin::ConditionVariable: release fully, wait, restore the count.
  def wait_for_cond(cond, timeout)
    count = @mon_count
    @mon_owner = nil
    @mon_count = 0
    begin
      cond.wait(@mon_mutex, timeout)
    ensure
      @mon_owner = Thread.current
      @mon_count = count
    end
  end
end

module MonitorMixin
  class ConditionVariable
    def initialize(monitor)
      @monitor = monitor
      @cond = ::ConditionVariable.new
    end

    def wait(timeout = nil)
      @monitor.mon_check_owner
      @monitor.wait_for_cond(@cond, timeout)
    end

    def wait_while
      wait while yield
    end

    def wait_until
      wait until yield
    end

    def signal
      @monitor.mon_check_owner
      @cond.signal
    end

    def broadcast
      @monitor.mon_check_owner
      @cond.broadcast
    end
  end
end

# ThreadGroup (CRuby): every thread belongs to one, the group of the thread that created it
# (ThreadGroup::Default for the main thread). An enclosed group keeps its threads (they cannot be
# moved out) and takes no others; new threads still join their creator's group.
class ThreadGroup
  def initialize
    @enclosed = false
  end

  # the group's threads still alive
  def list
    Thread.list.select { |t| t.group.equal?(self) }
  end

  def add(thread)
    raise TypeError, "wrong argument type #{thread.class} (expected VM/thread)" unless thread.is_a?(Thread)
    raise ThreadError, "can't move to the frozen thread group" if frozen?
    raise ThreadError, "can't move to the enclosed thread group" if @enclosed
    from = thread.group
    if from
      raise ThreadError, "can't move from the frozen thread group" if from.frozen?
      raise ThreadError, "can't move from the enclosed thread group" if from.enclosed?
      thread._group = self
    end
    self
  end

  def enclose
    @enclosed = true
    self
  end

  def enclosed?
    @enclosed
  end

  Default = new
end

Thread.main._group = ThreadGroup::Default

class Thread
  module Backtrace
    # What Thread#backtrace_locations gives (CRuby): one frame of a backtrace. Labels are CRuby
    # 3.4's: #label "block in Foo#bar", #base_label "bar".
    class Location
      def path = @path
      def lineno = @lineno
      def label = @label

      def initialize(line)
        @line = line
        @path, rest = line.split(":", 2)
        @lineno = rest.to_i
        lbl = rest.split(":in ", 2)[1]
        @label = if lbl.nil? then "<main>"
                 elsif lbl.size >= 2 && "'`".include?(lbl[0]) && lbl[-1] == "'" then lbl[1..-2]
                 else lbl
                 end
      end

      def absolute_path
        @path
      end

      def base_label
        l = @label
        l = l[(l.index(" in ") + 4)..-1] if l.start_with?("block ") && l.include?(" in ")
        return l if l.start_with?("<")
        i = l.rindex("#") || l.rindex(".")
        i ? l[(i + 1)..-1] : l
      end

      def to_s
        @line
      end

      def inspect
        @line.inspect
      end
    end
  end

  def backtrace_locations(*args)
    bt = backtrace(*args)
    bt && bt.map { |line| Backtrace::Location.new(line) }
  end
end
