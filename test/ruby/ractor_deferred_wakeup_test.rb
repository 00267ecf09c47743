# A message handed to a ractor waiting in Ractor.receive: mnrb defers the receiving thread's wake-up
# to its sender's next park, which then switches straight into it (core/src/sched.c,
# mn_unpark_later). Every other way the sender can give up its native thread or stop for a while
# must make the wake-up first, and the tick must make one that waits too long: these tests end the
# sender's turn each such way right after a send and check that the receiver answers at once.
#
# The programs run in a child with MNRB_TIMESLICE=60000 (the tick every 6 s) where only a missing
# wake-up would wait for the tick: a round that takes 3 s is one that was not woken (a lost wake-up
# would hang). The one that checks the tick itself runs at the usual timeslice.

class RactorDeferredWakeupTest < MnTest::Case
  BIN = RbConfig.ruby
  SLOW = 3.0   # seconds: far above a round on a loaded machine, far below the 6 s tick

  # The receiver: echoes, opens a FIFO for writing, or reports the pid it runs in.
  SERVER = <<~'RUBY'
    Warning[:experimental] = false if Warning.respond_to?(:[]=)
    def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    B = Ractor.new do
      loop do
        cmd, arg, to = Ractor.receive
        case cmd
        when :echo then to.send arg
        when :fifo then File.open(arg, "w") { |f| f.write "x" }
        when :pid then $stdout.puts "receiver in #{Process.pid}"; $stdout.flush; to.send Process.pid
        when :stop then break
        end
      end
      :done
    end
    # enough hand-offs on this native thread that messages ride its hand-off slot quietly
    def warm(b, me) = 40.times { |i| b.send [:echo, i, me]; Ractor.receive }
  RUBY

  def run_program(body, timeslice: 60000, timeout: 60)
    env = { "MNRB_TIMESLICE" => timeslice.to_s }
    err = "/tmp/mnrb-deferred-#{Process.pid}.err"
    r, w = IO.pipe
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    pid = spawn(env, BIN, "-e", SERVER + body, out: w, err: err)
    w.close
    watchdog = Thread.new { sleep timeout; Process.kill(:KILL, pid) rescue nil }
    out = r.read
    _, st = Process.wait2(pid)
    watchdog.kill
    r.close
    took = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
    assert_equal 0, st.exitstatus,
                 "the program's status: #{st.inspect} after #{took.round(2)} s (output: #{out.inspect}, " \
                 "errors: #{File.read(err).lines.last(5).join.inspect})"
    out
  ensure
    File.delete(err) if err && File.exist?(err)
  end

  def worst_of(out)
    line = out.lines.grep(/\Aworst /).last
    assert line, "no result in #{out.inspect}"
    line.split[1].to_f
  end

  # The sender blocks in open(2) of a FIFO (a blocking call, which may keep the GVL) until the
  # receiver, woken by the message sent just before, opens it for writing.
  def test_sender_then_blocks_in_a_c_call
    fifo = "/tmp/mnrb-deferred-#{Process.pid}"
    File.delete(fifo) if File.exist?(fifo)
    File.mkfifo(fifo)
    out = run_program(<<~RUBY)
      a = Ractor.new(B, #{fifo.inspect}) do |b, fifo|
        me = Ractor.current
        warm(b, me)
        worst = 0.0
        20.times do
          t0 = clock
          b.send [:fifo, fifo, nil]
          File.open(fifo, "r") { |f| raise "read" unless f.read == "x" }
          worst = [worst, clock - t0].max
          b.send [:echo, 0, me]; Ractor.receive
        end
        worst
      end
      puts "worst \#{a.take}"
      B.send [:stop]
      B.take
    RUBY
    assert_operator_below worst_of(out), SLOW
  ensure
    File.delete(fifo) if fifo && File.exist?(fifo)
  end

  # The sender sleeps right after sending: the receiver answers the main ractor meanwhile.
  def test_sender_then_sleeps
    out = run_program(<<~RUBY)
      main = Ractor.current
      a = Ractor.new(B, main) do |b, main|
        me = Ractor.current
        warm(b, me)
        10.times { b.send [:echo, clock, main]; sleep 0.05 }
        :slept
      end
      worst = 0.0
      10.times { sent = Ractor.receive; worst = [worst, clock - sent].max }
      a.take
      puts "worst \#{worst}"
      B.send [:stop]
      B.take
    RUBY
    assert_operator_below worst_of(out), SLOW
  end

  # The sender's last act is the send: its ractor ends right after.
  def test_sender_then_ends
    out = run_program(<<~RUBY)
      main = Ractor.current
      worst = 0.0
      15.times do
        r = Ractor.new(B, main) do |b, main|
          warm(b, Ractor.current)
          b.send [:echo, clock, main]
        end
        sent = Ractor.receive
        worst = [worst, clock - sent].max
        r.take
      end
      puts "worst \#{worst}"
      B.send [:stop]
      B.take
    RUBY
    assert_operator_below worst_of(out), SLOW
  end

  # The main ractor sends and forks at once: the receiver runs in the parent only (the child has no
  # such ractor: its wake-up must be neither made there nor lost in the parent).
  def test_sender_then_forks
    fork_allowed!
    out = run_program(<<~RUBY)
      main = Ractor.current
      warm(B, main)
      t0 = clock
      B.send [:pid, nil, main]
      # the child's thread parks with nothing else to run (a wake-up made there would run the
      # receiver there): a sleep as a way to be idle, not to wait for anything
      pid = fork { Thread.new { Thread.pass }.join; sleep 0.02; exit!(0) }
      _, st = Process.wait2(pid)
      raise "child: \#{st.inspect}" unless st.success?
      raise "wrong pid" unless Ractor.receive == Process.pid
      puts "worst \#{clock - t0}"
      B.send [:stop]
      B.take
    RUBY
    assert_equal 1, out.lines.grep(/\Areceiver in /).size, out
    assert_include out, "receiver in "
    assert_operator_below worst_of(out), SLOW
  end

  # The sender computes for a long time without any scheduler call: the tick makes the wake-up
  # (the usual timeslice here), so the receiver answers long before the sender is done.
  def test_sender_then_computes
    out = run_program(<<~RUBY, timeslice: 100)
      main = Ractor.current
      a = Ractor.new(B, main) do |b, main|
        warm(b, Ractor.current)
        b.send [:echo, clock, main]
        t0 = clock
        x = 0
        x += 1 while clock - t0 < 1.5
        x
      end
      sent = Ractor.receive
      puts "worst \#{clock - sent}"
      a.take
      B.send [:stop]
      B.take
    RUBY
    assert_operator_below worst_of(out), 0.75
  end

  def assert_operator_below(value, bound)
    assert value < bound, "took #{value} s (bound #{bound} s)"
  end
end
