# The stress suite (issue 18): for a bounded time, runs the programs in this folder at random moments
# and in random modes, and checks what a user must be able to rely on whatever the program is doing:
#   - SIGTERM ends the process within a second (it is killed and counted as a failure otherwise);
#   - a run left to finish exits 0 and prints "OK" (each program checks its own data: every byte read
#     is a byte that was written, every message arrives, RSS returns to its baseline);
#   - nothing on stderr from a sanitizer, a crash, heap corruption or a spurious thread report.
#
#   ruby test/stress/run.rb BIN [SECONDS] [PROGRAM...]
#
# Runs with CRuby (Debian's `ruby`) so that the driver does not depend on the runtime under test.
# Each run gets a random timeslice (MNRB_TIMESLICE 1-5 ms). STRESS_SEED fixes the random choices (printed at the start, so that a failure can be replayed).
# Each line of output is one run; the last line is "N passed, N failed".
require "rbconfig"

bin = ARGV.shift or abort "usage: ruby #{$0} BIN [SECONDS] [PROGRAM...]"
seconds = (ARGV.shift || 20).to_f
dir = File.expand_path(__dir__)
programs = ARGV.empty? ? Dir["#{dir}/*.rb"].reject { |f| f.end_with?("/run.rb") }.sort : ARGV.map { |f| File.expand_path(f) }
# A program may say it cannot run under a sanitizer ("# stress-skip-under: tsan"): fork does not work
# under ThreadSanitizer, which also holds a signal's handler until an interrupted system call returns.
programs.reject! do |f|
  skip = File.read(f)[/^# stress-skip-under: (.*)$/, 1].to_s.split
  skip.include?(ENV["MNRB_SANITIZER"].to_s)
end
seed = (ENV["STRESS_SEED"] || Random.new_seed % 1_000_000).to_i
rng = Random.new(seed)
sanitized = ENV["MNRB_SANITIZER"].to_s != ""
term_limit = sanitized ? 3.0 : 1.0   # a sanitizer build runs several times slower: its bound is looser
ready_limit = sanitized ? 60.0 : 20.0
puts "stress: #{bin}, #{seconds} s, seed #{seed}, SIGTERM bound #{term_limit} s"

BAD_STDERR = [/AddressSanitizer/, /runtime error:/, /ThreadSanitizer/, /LeakSanitizer/, /Segmentation fault/,
              /malloc\(\)|free\(\)|double free|corrupted/, /terminated with exception/, /CORRUPT/,
              /\[BUG\]/, /Aborted/].freeze

def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

# Waits for the child to end, at most `limit` seconds; returns its Process::Status or nil.
def wait_for(pid, limit)
  deadline = now + limit
  loop do
    _, st = Process.waitpid2(pid, Process::WNOHANG)
    return st if st
    return nil if now > deadline
    sleep 0.005
  end
end

# Reads what the child printed until it says READY (or ends, or the time is up).
def await_ready(out, limit)
  deadline = now + limit
  buf = +""
  until buf.include?("READY\n")
    left = deadline - now
    return [false, buf] if left <= 0 || !IO.select([out], nil, nil, left)
    chunk = out.read_nonblock(4096, exception: false)
    return [false, buf] if chunk.nil?
    buf << chunk unless chunk == :wait_readable
  end
  [true, buf]
end

pass = fail = 0
started = now
round = 0
while now - started < seconds || round < programs.size
  prog = programs[round % programs.size]
  round += 1
  mode = rng.rand < 0.5 ? "term" : "finish"
  run_seed = rng.rand(1_000_000)
  name = File.basename(prog, ".rb")
  out_r, out_w = IO.pipe
  err_path = "/tmp/mnrb-stress-#{Process.pid}-#{round}.err"
  # a random timeslice (1-5 ms) each run: preemption lands in more places than the default's
  env = { "STRESS_MODE" => mode, "STRESS_SEED" => run_seed.to_s, "MNRB_TIMESLICE" => rng.rand(1..5).to_s }
  pid = spawn(env, bin, prog,
              out: out_w, err: err_path, in: :close, pgroup: true)
  out_w.close
  problems = []
  ready, output = await_ready(out_r, ready_limit)
  problems << "never said READY" unless ready
  elapsed = nil
  if !ready
    # nothing to wait for: the program is stuck before its activity (or died): it is killed below
  elsif mode == "term"
    sleep rng.rand(0.02..0.4)   # a random moment of the program's activity (the driver's pace only)
    t0 = now
    begin
      Process.kill(:TERM, pid)
    rescue Errno::ESRCH
    end
    st = wait_for(pid, term_limit)
    elapsed = now - t0
    if st.nil?
      problems << "still running #{term_limit} s after SIGTERM"
    elsif !(st.termsig == 15 || st.exitstatus == 143 || (st.exitstatus == 0 && output.include?("OK")))
      problems << "SIGTERM: ended with #{st.inspect}"
    end
  else
    st = wait_for(pid, sanitized ? 240 : 90)
    if st.nil?
      problems << "did not finish"
    else
      output << out_r.read.to_s
      problems << "finish: #{st.inspect}" unless st.success?
      problems << "finish: no OK (#{output.lines.last.to_s.strip})" unless output.include?("OK")
    end
  end
  if problems.any? { |p| p.start_with?("still running", "did not finish", "never said") }
    if ENV["STRESS_GDB"]   # where a stuck process is, for whoever debugs it
      system("gdb", "-q", "-p", pid.to_s, "-batch", "-ex", "thread apply all bt 12", out: $stdout, err: File::NULL)
      system("ps", "-o", "pid,ppid,stat,wchan:20,cmd", "-g", pid.to_s)
    end
    Process.kill(:KILL, -pid) rescue nil
    Process.wait(pid) rescue nil
  else
    Process.kill(:KILL, -pid) rescue nil   # anything the program left behind (its forked children)
  end
  out_r.close
  err = File.exist?(err_path) ? File.binread(err_path) : ""
  File.delete(err_path) if File.exist?(err_path)
  # a program may expect some threads or ractors to end with an error it names (CRuby reports them)
  allow = File.read(prog)[/^# stress-allow-stderr: (.*)$/, 1]
  # (the reports of several ractors interleave, even within a line: each expected error pays for one)
  if allow
    allow_re = Regexp.new(allow)
    report_re = /#<Thread:[^>]*> terminated with exception \(report_on_exception is true\):/
    # (a SIGTERM may land between a report's first line and its error's: then only the count of
    # finished runs is exact)
    if mode == "term" || err.scan(report_re).size <= err.scan(allow_re).size
      err = err.gsub(report_re, "").lines.reject { |l| l.match?(allow_re) }.join
    end
  end
  bad = BAD_STDERR.find { |re| err.match?(re) }
  problems << "stderr: #{err.lines.grep(bad).first.to_s.strip[0, 200]}" if bad
  label = format("%-12s %-6s seed %-7d", name, mode, run_seed)
  label += format(" ended %.3f s after SIGTERM", elapsed) if elapsed && problems.empty?
  if problems.empty?
    pass += 1
    puts "ok   #{label}"
  else
    fail += 1
    puts "FAIL #{label}: #{problems.join('; ')}"
    puts err.lines.last(15).map { |l| "  | #{l}" }.join unless err.empty?
  end
  $stdout.flush
end
puts "#{pass} passed, #{fail} failed"
exit(fail.zero? ? 0 : 1)
