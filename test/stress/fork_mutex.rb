# Stress: fork while other threads hold mutexes, wait in queues and write to a pipe. In the child only
# the forking thread lives and the mutexes the others held are free (CRuby abandons them); it reports
# through a pipe and exits with a status the parent checks. Not run under ThreadSanitizer (no fork there).
# stress-skip-under: tsan
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
Thread.report_on_exception = false

locks = Array.new(4) { Mutex.new }
q = Queue.new
holders = locks.map do |mu|
  Thread.new { loop { mu.synchronize { q.pop } } }   # holds its mutex while it waits
end
sink_r, sink_w = IO.pipe
chatter = Thread.new { loop { sink_w.write("x" * rand(1..512)) } }
drain = Thread.new { loop { sink_r.readpartial(65536) } }

puts "READY"
$stdout.flush
forks = 0
loop do
  Thread.pass until locks.count(&:locked?) >= 2   # fork with some of them held by other threads
  r, w = IO.pipe
  pid = fork do
    r.close
    taken = locks.map { |mu| mu.try_lock || mu.owned? }   # abandoned in the child: free to take
    live = Thread.list.size
    w.write("#{taken.all?} #{live}\n")
    w.close
    exit!(taken.all? && live == 1 ? 7 : 1)
  end
  w.close
  report = r.read
  r.close
  _, st = Process.waitpid2(pid)
  raise "child: #{report.inspect}, #{st.inspect} (mutexes taken, threads alive)" unless st.exitstatus == 7
  q << :go
  forks += 1
  break if FINISH && forks >= 40
end
puts "OK #{forks} forks"
