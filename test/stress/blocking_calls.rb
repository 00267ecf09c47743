# Stress: threads stuck in system calls that block (open of a FIFO with no writer, flock on a file a
# child process holds, waitpid on a sleeping child, sleep) beside a thread that rescues every exception
# around ConditionVariable#wait and a busy thread. None of them may keep SIGTERM from ending the process,
# and when the main thread ends (a finished run) the process ends with them still there.
require "tmpdir"
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
Thread.report_on_exception = false

dir = Dir.mktmpdir("mnrb-stress")
at_exit { Dir.children(dir).each { |f| File.delete(File.join(dir, f)) }; Dir.rmdir(dir) }
fifo = File.join(dir, "fifo")
system("mkfifo", fifo) or raise "mkfifo failed"
lockfile = File.join(dir, "lock")
File.write(lockfile, "")

# a child that holds the lock until we say (it reads its stdin) — spawned, so no fork is needed
lock_in_r, lock_in_w = IO.pipe
locker = spawn("flock", lockfile, "-c", "head -c1 >/dev/null", in: lock_in_r)
lock_in_r.close
sleeper = spawn("sleep", "600")

m = Mutex.new
cv = ConditionVariable.new
threads = []
threads << Thread.new { File.open(fifo, "r") { |f| f.read } }                  # open(2) blocks: no writer
threads << Thread.new do
  Thread.pass until File.exist?(lockfile)
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 5
  Thread.pass while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline &&
                    File.open(lockfile) { |f| f.flock(File::LOCK_EX | File::LOCK_NB) && f.flock(File::LOCK_UN) }
  File.open(lockfile) { |f| f.flock(File::LOCK_EX) }                          # flock(2) blocks: held by the child
end
threads << Thread.new { Process.wait(sleeper) }                                 # waitpid(2) blocks
threads << Thread.new { sleep }
threads << Thread.new { loop { begin; m.synchronize { cv.wait(m) }; rescue Exception; end } }
threads << Thread.new { x = 0; loop { x += 1 } }

Thread.pass until threads.first(4).all? { |t| t.status == "sleep" || !t.alive? }
puts "READY"
$stdout.flush
unless FINISH
  sleep
end
# a finished run: release the FIFO reader and the lock, then end with the others still blocked
File.open(fifo, "w") { |f| f.write("hello") }
raise "FIFO reader got #{threads[0].value.inspect}" unless threads[0].value == "hello"
lock_in_w.write("x")
lock_in_w.close
Process.wait(locker)
threads[1].join
Process.kill(:KILL, sleeper)
threads[2].join
puts "OK"
