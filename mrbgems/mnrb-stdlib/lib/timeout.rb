# Timeout.timeout with the semantics of CRuby 3.x's timeout library.
#
# One watcher thread ("Timeout stdlib thread", started at the first timeout) serves every timeout
# of the ractor: a call registers a request (calling thread, deadline) and runs its block; the
# watcher sleeps until the nearest deadline and raises into the thread of each expired request
# with Thread#raise. No thread is created per call.
#
# Without a class argument, the watcher raises a Timeout::ExitException (an Exception, so that a
# `rescue => e` inside the block cannot swallow it); the timeout call that registered it turns it
# into Timeout::Error on the way out, so nested timeouts each see only their own expiry. With a
# class, that class is raised directly, as in CRuby.
module Timeout
  # Raised through the block when its time is up; becomes Timeout::Error at the timeout call.
  class ExitException < Exception
    def exception(*)
      self
    end
  end

  class Error < RuntimeError
    # Runs the block with an ExitException for the watcher to raise, and turns that very
    # exception (not another timeout's) into Timeout::Error.
    def self.handle_timeout(message)
      exit = ExitException.new(message)
      begin
        yield exit
      rescue ExitException => e
        raise new(message) if e.equal?(exit)
        raise e
      end
    end
  end

  # One timeout call: which thread to interrupt, when, with what.
  class Request
    attr_reader :deadline

    def initialize(thread, sec, exception, message)
      @thread = thread
      @deadline = Timeout.now + sec
      @exception = exception
      @message = message
      @lock = Mutex.new
      @done = false   # guarded by @lock: set once, by whichever of finish/interrupt comes first
    end

    def done?
      @lock.synchronize { @done }
    end

    # The block has returned or raised: never interrupt it after this.
    def finish
      @lock.synchronize { @done = true }
    end

    def interrupt
      @lock.synchronize do
        next if @done
        @done = true
        if @exception.is_a?(Class)
          @thread.raise(@exception, @message)
        else
          @thread.raise(@exception)
        end
      end
    end
  end

  # The watcher thread and its pending requests.
  class Watcher
    def initialize
      @lock = Mutex.new
      @changed = ConditionVariable.new
      @pending = []    # guarded by @lock: requests not yet done
      @thread = nil    # guarded by @lock
    end

    def add(request)
      @lock.synchronize do
        @pending << request
        @thread = start unless @thread && @thread.alive?
        @changed.signal
      end
    end

    def thread
      @lock.synchronize { @thread }
    end

    private

    def start
      t = Thread.new { @lock.synchronize { watch } }
      t.name = "Timeout stdlib thread"
      t.report_on_exception = false
      t
    end

    # Holds @lock except while waiting.
    def watch
      loop do
        @pending.reject!(&:done?)
        if @pending.empty?
          @changed.wait(@lock)
          next
        end
        now = Timeout.now
        due = @pending.select { |r| r.deadline <= now }
        if due.empty?
          nearest = @pending.map(&:deadline).min
          @changed.wait(@lock, nearest - now)
        else
          due.each(&:interrupt)
        end
      end
    end
  end

  WATCHER = Watcher.new

  def self.now
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  # Runs the block, raising `klass` (default Timeout::Error) with `message` in it if it has not
  # finished after `sec` seconds. nil or 0 means no limit. Returns the block's value.
  def timeout(sec, klass = nil, message = nil, &block)
    return yield(sec) if sec.nil? || sec.zero?
    raise ArgumentError, "Timeout sec must be a non-negative number" if sec < 0
    message ||= "execution expired"
    run = lambda do |exception|
      request = Request.new(Thread.current, sec, exception, message)
      WATCHER.add(request)
      begin
        yield(sec)
      ensure
        request.finish
      end
    end
    klass ? run.call(klass) : Error.handle_timeout(message, &run)
  end
  module_function :timeout
end
