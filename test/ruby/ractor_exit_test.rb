# Issue 20, process exit: when the main ractor's main thread ends (normally, by an exception, by
# exit or exit!, by SIGTERM or SIGINT) the process ends promptly whatever the other ractors do, with
# CRuby's exit status, its at_exit handlers run once (none for exit!). Each test starts a program
# whose ractors enter one state (computing, allocating, waiting for I/O, in a blocking call, in
# receive, waiting on each other, threads of their own, an ensure clause that does not end: a loop, a
# sleep, a call that does not return), waits until it says "ready" and ends it each way. CRuby re-sends its termination request every second (an endless
# ensure ends after about one); mnrb waits 200 ms for ractors that stop ending.
class RactorExitTest < MnTest::Case
  MNRB = Object.const_defined?(:MNRB_VERSION)
  BOUND = MnTest.env("MNRB_SANITIZER") ? 5.0 : (MNRB ? 1.0 : 2.0)
  # the ractors of each state: each says :up just before it enters the state
  STATES = {
    busy: '3.times { Ractor.new { Ractor.main << :up; x = 0; loop { x += 1 } } }',
    allocating: '3.times { Ractor.new { Ractor.main << :up; loop { 100.times.map { Class.new; "x" * 100 } } } }',
    io: '3.times { Ractor.new { r, _w = IO.pipe; Ractor.main << :up; r.read } }',
    blocking_call: 'path = ARGV[0]; system("mkfifo", path) or raise "mkfifo"; ' \
                   '3.times { Ractor.new(path) { |pa| Ractor.main << :up; File.open(pa) { |f| f.read } } }',
    receive: '3.times { Ractor.new { Ractor.main << :up; Ractor.receive } }',
    each_other: 'a = Ractor.new { Ractor.main << :up; Ractor.receive }; ' \
                '2.times { Ractor.new(a) { |x| Ractor.main << :up; x.respond_to?(:value) ? x.value : x.take } }',
    threads: '2.times { Ractor.new { ts = 2.times.map { Thread.new { x = 0; loop { x += 1 } } } + [Thread.new { sleep }]; ' \
             'Ractor.main << :up; Ractor.receive } }',
    ensure_loop: '2.times { Ractor.new { begin; Ractor.main << :up; Ractor.receive; ensure; loop { } end } }',
    ensure_sleep: '2.times { Ractor.new { begin; Ractor.main << :up; Ractor.receive; ensure; sleep end } }',
    ensure_blocking_call: 'path = ARGV[0]; system("mkfifo", path) or raise "mkfifo"; ' \
                          '2.times { Ractor.new(path) { |pa| begin; Ractor.main << :up; Ractor.receive; ' \
                          'ensure; File.open(pa) { |f| f.read } end } }',
  }.freeze
  UPS = { busy: 3, allocating: 3, io: 3, blocking_call: 3, receive: 3, each_other: 3, threads: 2,
          ensure_loop: 2, ensure_sleep: 2, ensure_blocking_call: 2 }.freeze
  # how main ends => [exit status or nil, signal or nil, at_exit runs]
  ENDINGS = {
    "nil" => [0, nil, 1], "raise 'boom'" => [1, nil, 1], "exit 3" => [3, nil, 1], "exit! 4" => [4, nil, 0],
    "TERM" => [nil, 15, 1], "INT" => [nil, 2, 1],
  }.freeze

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  # Runs the program, waits for "ready", ends it; returns [status, stdout, seconds from ready to end].
  def run_state(state, ending)
    signal = ending =~ /\A[A-Z]+\z/ ? ending : nil
    fifo = "/tmp/mnrb-ractor-exit-#{Process.pid}-#{state}"
    File.delete(fifo) if File.exist?(fifo)
    code = "Warning[:experimental] = false if Warning.respond_to?(:[]=); " \
           "at_exit { puts 'at_exit' }; #{STATES[state]}; #{UPS[state]}.times { Ractor.receive }; " \
           "puts 'ready'; $stdout.flush; #{signal ? 'sleep' : ending}"
    r, w = IO.pipe
    err = "#{fifo}.err"
    pid = spawn(RbConfig.ruby, "-e", code, fifo, out: w, err: err)
    w.close
    out = +""
    until out.include?("ready\n")
      chunk = r.readpartial(100) rescue nil
      break unless chunk
      out << chunk
    end
    t0 = now
    Process.kill(signal, pid) if signal
    status = nil
    until (status = Process.waitpid2(pid, Process::WNOHANG)&.last) || now - t0 > BOUND + 5
      sleep 0.01   # polls for the end (no synchronization rests on it)
    end
    took = now - t0
    unless status
      Process.kill(:KILL, pid)
      Process.wait(pid)
    end
    out << r.read.to_s
    r.close
    File.delete(fifo) if File.exist?(fifo)
    errors = File.read(err).lines.grep(/Sanitizer|runtime error:|\[BUG\]|terminated with exception/).first(3).join
    File.delete(err)
    [status, out, took, errors]
  end

  TSAN = MnTest.env("MNRB_SANITIZER") == "tsan"

  def check_state(state)
    # mnrb-io's gem init in each ractor writes a global TSan reports (io.c)
    skip "ThreadSanitizer: mnrb-io's IO.pipe in a ractor" if TSAN && state == :io
    ENDINGS.each do |ending, (code, sig, at_exits)|
      status, out, took, errors = run_state(state, ending)
      what = "#{state}, main ends with #{ending}"
      assert_equal "", errors, "#{what}: stderr"
      assert status, "#{what}: still running #{took.round(2)} s later"
      assert_include out, "ready", "#{what}: never ready"
      if sig
        assert_equal sig, status.termsig, "#{what}: #{status.inspect}"
      else
        assert_equal code, status.exitstatus, "#{what}: #{status.inspect}"
      end
      assert_equal at_exits, out.scan("at_exit").size, "#{what}: at_exit ran #{out.scan('at_exit').size} times"
      assert took < BOUND, "#{what}: took #{took.round(2)} s"
    end
  end

  def test_busy_ractors = check_state(:busy)
  def test_allocating_ractors = check_state(:allocating)
  def test_ractors_waiting_for_io = check_state(:io)
  def test_ractors_in_a_blocking_call = check_state(:blocking_call)
  def test_ractors_in_receive = check_state(:receive)
  def test_ractors_waiting_on_each_other = check_state(:each_other)
  def test_ractors_with_busy_and_sleeping_threads = check_state(:threads)
  def test_ractors_in_an_endless_ensure_loop = check_state(:ensure_loop)
  def test_ractors_sleeping_in_an_ensure = check_state(:ensure_sleep)
  def test_ractors_in_a_blocking_call_in_an_ensure = check_state(:ensure_blocking_call)

  # exit! in any thread of any ractor ends the whole process at once (no at_exit), as in CRuby
  def test_exit_bang_in_a_ractor_ends_the_process
    t0 = now
    code = 'at_exit { puts "at_exit" }; Ractor.new { Thread.new { exit! 9 }.join; sleep }; ' \
           '3.times { Ractor.new { x = 0; loop { x += 1 } } }; sleep; puts "after"'
    out = IO.popen([RbConfig.ruby, "-e", code, err: File::NULL], &:read)
    assert_equal "", out
    assert_equal 9, $?.exitstatus, $?.inspect
    assert now - t0 < BOUND + 4, "took #{now - t0} s"
  end

  # the issue's program: 8 ractors allocate classes and send; main takes 100 messages and ends
  def test_the_issue_s_allocating_senders_let_the_process_end
    skip "Ractor::Port is CRuby 3.5's" unless defined?(Ractor::Port)
    code = 'port = Ractor::Port.new; 8.times { Ractor.new(port) { |po| loop { 100.times.map { Class.new }; po << nil } } }; ' \
           '100.times { port.receive }; puts "ok"'
    t0 = now
    out = IO.popen([RbConfig.ruby, "-e", code], &:read)
    assert_equal "ok\n", out
    assert $?.success?, $?.inspect
    assert now - t0 < BOUND + 4, "took #{now - t0} s"
  end
end
