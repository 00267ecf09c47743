# MnTest: a tiny Minitest-like harness for mnrb's Ruby-level tests.
#
# Loaded with -r on both runtimes: `bin/mnrb -r ./test/lib/unit.rb FILE` and
# `ruby -r ./test/lib/unit.rb FILE`. Subclasses of MnTest::Case register themselves; their
# `test_*` methods run from at_exit in definition order, each on a fresh instance, between
# `setup` and `teardown`. Output: one line per failure/error (errors add a few backtrace lines),
# then, as the LAST line, `N passed, N failed` (+ `, N skipped`). Exit status 1 if anything failed.
#
# Must stay within mruby 3.1 plus what mnrb adds (at_exit, exit!, Process.clock_gettime,
# Array#sum): no Regexp, no require, and `$!` may be nil even after an uncaught exception.
# Env (when ENV exists): MNTEST_VERBOSE=1 prints each test and its time to stderr;
# MNTEST_FILTER=str runs only tests whose "Class#method" includes str.

module MnTest
  # Inherits from Exception so that `rescue => e` in code under test cannot swallow it.
  class Failure < Exception; end
  class Skip < Exception; end

  UNIT_FILE = __FILE__
  THREADS = Object.const_defined?(:Thread) # false only when checking this file on plain mruby
  @cases = []

  class << self
    attr_reader :cases

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    def env(name)
      Object.const_defined?(:ENV) ? ENV[name] : nil
    end
  end

  module Assertions
    def assert(cond, msg = nil)
      raise Failure, (msg || "expected truthy, got #{cond.inspect}") unless cond
      true
    end

    def refute(cond, msg = nil)
      assert(!cond, msg || "expected falsy, got #{cond.inspect}")
    end

    def flunk(msg = "flunked")
      raise Failure, msg
    end

    def assert_equal(exp, act, msg = nil)
      assert(exp == act, msg || "expected #{exp.inspect}, got #{act.inspect}")
    end

    def assert_nil(act, msg = nil)
      assert(act.nil?, msg || "expected nil, got #{act.inspect}")
    end

    def assert_same(exp, act, msg = nil)
      assert(exp.equal?(act), msg || "expected the same object as #{exp.inspect}, got #{act.inspect}")
    end

    def assert_kind_of(klass, act, msg = nil)
      assert(act.kind_of?(klass), msg || "expected a #{klass}, got #{act.inspect} (#{act.class})")
    end

    def assert_in_delta(exp, act, delta = 0.001, msg = nil)
      assert((exp - act).abs <= delta, msg || "expected #{act.inspect} to be within #{delta} of #{exp.inspect}")
    end

    def assert_include(collection, obj, msg = nil)
      assert(collection.include?(obj), msg || "expected #{collection.inspect} to include #{obj.inspect}")
    end

    # assert_raise(ThreadError) { ... } -> the exception, so the caller can check e.message.
    def assert_raise(*klasses)
      klasses = [StandardError] if klasses.empty?
      begin
        yield
      rescue Failure, Skip => e
        raise e
      rescue Exception => e
        return e if klasses.any? { |k| e.kind_of?(k) }
        flunk "expected #{klasses.inspect} to be raised, got #{e.class}: #{e.message}"
      end
      flunk "expected #{klasses.inspect} to be raised, nothing was raised"
    end

    def skip(msg = "skipped")
      raise Skip, msg
    end

    def mnrb?
      Object.const_defined?(:MNRB_VERSION)
    end

    def mnrb_only
      skip "mnrb-only" unless mnrb?
    end

    # ThreadSanitizer cannot follow fork(2) in a multi-threaded process: the child dies when it
    # starts a thread (mnrb's event loop), and TSan's view of the parent's threads gives false
    # reports there. Tests that fork run in the release and ASan+UBSan builds.
    def fork_allowed!
      skip "fork under ThreadSanitizer" if MnTest.env("MNRB_SANITIZER") == "tsan"
    end

    # Forks a child that runs the block with a pipe to write to, then exits (exit!: no at_exit of the
    # parent's); returns [its exit status, what it wrote]. A child still running after `timeout`
    # seconds (a hang) is killed, which fails the caller's check of the status.
    def forked_output(timeout = 60)
      rd, wr = IO.pipe
      pid = fork do
        rd.close
        yield wr
        wr.flush
        exit!(0)
      end
      wr.close
      watchdog = Thread.new { sleep timeout; Process.kill(:KILL, pid) }
      out = rd.read
      _, st = Process.wait2(pid)
      watchdog.kill
      rd.close
      [st.exitstatus, out]
    end

    # What the block writes to $stdout, through a pipe (keep it under the pipe's capacity).
    def capture_stdout
      r, w = IO.pipe
      saved = $stdout
      $stdout = w
      begin
        yield
      ensure
        $stdout = saved
        w.close
      end
      out = r.read
      r.close
      out
    end

    # The exception a ractor raised, as take hands it over (Ractor::RemoteError's cause).
    def remote_cause(ractor)
      ractor.take
      flunk "the ractor did not raise"
    rescue Ractor::RemoteError => e
      e.cause
    end

    # Spins with Thread.pass until the block is truthy; fails instead of hanging forever.
    def wait_until(what = "condition", timeout = 10)
      deadline = MnTest.now + timeout
      until yield
        flunk "timed out after #{timeout}s waiting for #{what}" if MnTest.now > deadline
        Thread.pass
      end
      true
    end
  end

  class Case
    include Assertions

    def self.inherited(sub)
      super
      MnTest.cases << sub
    end

    def self.method_added(name)
      super
      @tests ||= []
      @tests << name if name.to_s.start_with?("test_") && !@tests.include?(name)
    end

    def self.tests
      @tests || []
    end

    def setup; end
    def teardown; end
  end

  class Runner
    attr_reader :failed

    def initialize
      @passed = @failed = @skipped = 0
      @verbose = MnTest.env("MNTEST_VERBOSE")
      @filter = MnTest.env("MNTEST_FILTER")
    end

    def run_all
      MnTest.cases.each do |klass|
        klass.tests.each do |name|
          label = "#{klass}##{name}"
          run_one(klass, name, label) if !@filter || label.include?(@filter)
        end
      end
    end

    def run_one(klass, name, label)
      before = THREADS ? Thread.list : []
      t0 = MnTest.now
      begin
        test = klass.new
        begin
          test.setup
          test.__send__(name)
        ensure
          test.teardown
        end
        @passed += 1
      rescue Skip => e
        @skipped += 1
        $stderr.puts "SKIP #{label}: #{e.message}" if @verbose
      rescue Failure => e
        @failed += 1
        puts "FAIL #{label}: #{e.message}#{where(e)}"
      rescue Exception => e
        @failed += 1
        report_error(label, e)
      end
      reap_threads(before)
      $stderr.puts format("%8.3fs %s", MnTest.now - t0, label) if @verbose
    end

    def load_error(e)
      @failed += 1
      report_error("(load)", e)
    end

    def report_error(label, e)
      puts "ERROR #{label}: #{e.class}: #{e.message}"
      bt = e.backtrace || []
      own = bt.reject { |l| l.include?(UNIT_FILE) }
      (own.empty? ? bt : own).first(3).each { |l| puts "    #{l}" }
    end

    # The first backtrace line outside this file: where the failing assertion was called.
    def where(e)
      line = (e.backtrace || []).find { |l| !l.include?(UNIT_FILE) }
      line ? " (#{line})" : ""
    end

    # Threads a test left behind (e.g. after a failure) must not disturb later tests.
    def reap_threads(before)
      return unless THREADS
      (Thread.list - before).each do |t|
        t.kill
        begin
          t.join(1)
        rescue Exception
          nil # the thread's own failure was already reported, or its test failed
        end
      end
    end

    def summary
      s = "#{@passed} passed, #{@failed} failed"
      @skipped > 0 ? "#{s}, #{@skipped} skipped" : s
    end
  end

  # Called from at_exit. A script that died while loading counts as one error (if the runtime
  # sets $!; test/run-ruby-tests.sh also checks that every defined test ran).
  def self.autorun
    runner = Runner.new
    err = $!
    if err && !err.kind_of?(SystemExit)
      runner.load_error(err)
    else
      runner.run_all
    end
    puts runner.summary
    $stdout.flush
    $stderr.flush
    exit!(runner.failed > 0 ? 1 : 0)
  end
end

at_exit { MnTest.autorun }
